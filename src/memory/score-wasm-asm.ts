/**
 * The assembler of score-wasm.ts's WebAssembly module, kept as its readable source: score-wasm.ts holds the bytes
 * this makes (assembling them in every search cost more than the module's compile), and score-wasm.test.ts checks
 * that they are the same. After an edit here: `npx vitest run src/memory/score-wasm.test.ts` prints the new bytes.
 *
 * The functions, step for step as the JavaScript they stand for (query.ts): `add` is `addPostings`, `filter` the
 * checks of `collectRelevant` with a histogram of sums, `cut` its floor check, `clear` is `clear`; `find` is
 * segment.ts `findTerm`'s scan of a dictionary block.
 */

const I32 = 0x7f
const F64 = 0x7c

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = []
  do {
    let b = n & 0x7f
    n >>>= 7
    if (n !== 0) b |= 0x80
    out.push(b)
  } while (n !== 0)
  return out
}

/** Signed LEB128 of a small number (i32.const). */
function sleb(n: number): number[] {
  const out: number[] = []
  for (;;) {
    const b = n & 0x7f
    n >>= 7
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b]
    out.push(b | 0x80)
  }
}

const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()]
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body]
const name = (s: string): number[] => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))]

// Parameters and locals of `add`, by index.
const LIST = 0 // the list's first byte in memory
const END = 1 // one past its last byte
const DF = 2
const WEIGHT = 3 // f64
const NORM0 = 4 // f64
const NORM_PER = 5 // f64
const ACC = 6 // Float64 sums, by document
const TOUCHED = 7 // Int32 documents touched, in the order first touched
const LENGTHS = 8 // Uint16 BM25 lengths, by document
const NT = 9 // documents touched so far
const MATCHED = 10 // Uint8 counts of terms held, by document; 0: none kept
const ONLY = 11 // 1: add to touched documents only, up to UPTO
const UPTO = 12
const DOCS = 13 // documents in the segment: a list naming another is damaged
const AT = 14
const D = 15
const I = 16
const X = 17
const V = 18
const SHIFT = 19
const TF = 20 // f64
const A = 21 // f64
const ADDR = 22

const get = (i: number): number[] => [0x20, i]
const set = (i: number): number[] => [0x21, i]
const i32 = (n: number): number[] => [0x41, ...sleb(n)]
const f64 = (x: number): number[] => [0x44, ...new Uint8Array(Float64Array.of(x).buffer)]
const RETURN_DAMAGED = [...i32(-1), 0x0f]
const END_OP = 0x0b
// Opcodes.
const [BLOCK, LOOP, IF, ELSE, BR, BR_IF, RETURN] = [0x02, 0x03, 0x04, 0x05, 0x0c, 0x0d, 0x0f]
const EMPTY = 0x40
const [I32_LOAD8_U, I32_LOAD16_U, F64_LOAD, I32_STORE, F64_STORE, I32_STORE8] = [0x2d, 0x2f, 0x2b, 0x36, 0x39, 0x3a]
const [I32_EQZ, I32_EQ, I32_LT_U, I32_GT_S, I32_GT_U, I32_GE_S, I32_GE_U] = [0x45, 0x46, 0x49, 0x4a, 0x4b, 0x4e, 0x4f]
const [I32_ADD, I32_AND, I32_OR, I32_SHL, I32_SHR_U] = [0x6a, 0x71, 0x72, 0x74, 0x76]
const [F64_EQ, F64_LT, F64_GT, F64_GE, F64_ADD, F64_SUB, F64_MUL, F64_DIV, F64_MIN] = [0x61, 0x63, 0x64, 0x66, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4]
const [I32_LOAD, I32_NE, I32_TRUNC_F64_U, F64_CONVERT_I32_U] = [0x28, 0x47, 0xab, 0xb8]

/** Reads one varint into V from AT (X: its last byte); returns -1 past END or past 5 bytes. Depth-neutral. */
// prettier-ignore
const varint = (): number[] => [
  ...get(AT), ...get(END), I32_GE_U, IF, EMPTY, ...RETURN_DAMAGED, END_OP,
  ...get(AT), I32_LOAD8_U, 0, 0, ...set(X),
  ...get(AT), ...i32(1), I32_ADD, ...set(AT),
  ...get(X), ...i32(0x7f), I32_AND, ...set(V),
  ...i32(7), ...set(SHIFT),
  BLOCK, EMPTY,
  LOOP, EMPTY,
  ...get(X), ...i32(0x80), I32_LT_U, BR_IF, 1,
  ...get(AT), ...get(END), I32_GE_U, IF, EMPTY, ...RETURN_DAMAGED, END_OP,
  ...get(SHIFT), ...i32(28), I32_GT_U, IF, EMPTY, ...RETURN_DAMAGED, END_OP,
  ...get(AT), I32_LOAD8_U, 0, 0, ...set(X),
  ...get(AT), ...i32(1), I32_ADD, ...set(AT),
  ...get(V), ...get(X), ...i32(0x7f), I32_AND, ...get(SHIFT), I32_SHL, I32_OR, ...set(V),
  ...get(SHIFT), ...i32(7), I32_ADD, ...set(SHIFT),
  BR, 0,
  END_OP,
  END_OP,
]

/** The body of `add` (query.ts `addPostings`, step for step). */
function addBody(): number[] {
  // prettier-ignore
  return [
    ...get(LIST), ...set(AT),
    ...i32(-1), ...set(D),
    ...i32(0), ...set(I),
    BLOCK, EMPTY, // depth 1 inside: br 1 leaves
    LOOP, EMPTY, // br 0 goes on with the next posting
    ...get(I), ...get(DF), I32_GE_S, BR_IF, 1,
    ...varint(),
    // d += 1 + floor(v / 2)
    ...get(D), ...i32(1), I32_ADD, ...get(V), ...i32(1), I32_SHR_U, I32_ADD, ...set(D),
    ...get(D), ...get(DOCS), I32_GE_U, IF, EMPTY, ...RETURN_DAMAGED, END_OP,
    ...f64(1), ...set(TF),
    ...get(V), ...i32(1), I32_AND, IF, EMPTY,
    ...varint(),
    ...get(V), F64_CONVERT_I32_U, ...f64(2), F64_ADD, ...set(TF),
    END_OP,
    ...get(ACC), ...get(D), ...i32(3), I32_SHL, I32_ADD, ...set(ADDR),
    ...get(ADDR), F64_LOAD, 3, 0, ...set(A),
    ...get(A), ...f64(0), F64_EQ, IF, EMPTY, // depth: if, loop, block
    ...get(ONLY), I32_EQZ, IF, EMPTY,
    ...get(TOUCHED), ...get(NT), ...i32(2), I32_SHL, I32_ADD, ...get(D), I32_STORE, 2, 0,
    ...get(NT), ...i32(1), I32_ADD, ...set(NT),
    ELSE,
    ...get(D), ...get(UPTO), I32_GT_S, IF, EMPTY, ...get(NT), RETURN, END_OP,
    ...get(I), ...i32(1), I32_ADD, ...set(I),
    BR, 2, // continue: the loop, past this if and the outer one
    END_OP,
    END_OP,
    // acc[d] = acc[d] + (weight * tf) / (tf + norm0 + normPer * lengths[d])
    ...get(ADDR),
    ...get(A),
    ...get(WEIGHT), ...get(TF), F64_MUL,
    ...get(TF), ...get(NORM0), F64_ADD,
    ...get(NORM_PER), ...get(LENGTHS), ...get(D), ...i32(1), I32_SHL, I32_ADD, I32_LOAD16_U, 1, 0, F64_CONVERT_I32_U, F64_MUL,
    F64_ADD, F64_DIV, F64_ADD,
    F64_STORE, 3, 0,
    ...get(MATCHED), IF, EMPTY,
    ...get(MATCHED), ...get(D), I32_ADD,
    ...get(MATCHED), ...get(D), I32_ADD, I32_LOAD8_U, 0, 0, ...i32(1), I32_ADD,
    I32_STORE8, 0, 0,
    END_OP,
    ...get(I), ...i32(1), I32_ADD, ...set(I),
    BR, 0,
    END_OP,
    END_OP,
    ...get(AT), ...get(END), I32_EQ, IF, I32, ...get(NT), ELSE, ...i32(-1), END_OP,
    END_OP,
  ]
}

/** `d = i32[base + j * 4]; j++` (depth-neutral). */
const nextOf = (base: number, j: number, d: number): number[] => [
  ...get(base),
  ...get(j),
  ...i32(2),
  I32_SHL,
  I32_ADD,
  I32_LOAD,
  2,
  0,
  ...set(d),
  ...get(j),
  ...i32(1),
  I32_ADD,
  ...set(j),
]
/** `i32[base + n * 4] = d; n++`. */
const push = (base: number, n: number, d: number): number[] => [
  ...get(base),
  ...get(n),
  ...i32(2),
  I32_SHL,
  I32_ADD,
  ...get(d),
  I32_STORE,
  2,
  0,
  ...get(n),
  ...i32(1),
  I32_ADD,
  ...set(n),
]
/** `f64[base + d * 8]`. */
const f64At = (base: number, d: number): number[] => [...get(base), ...get(d), ...i32(3), I32_SHL, I32_ADD, F64_LOAD, 3, 0]

/** Adds one to the histogram's bucket (u32 at `hist`) of document d's sum: its sum times `scale`, at most 255. */
const bump = (hist: number, acc: number, d: number, scale: number, addr: number): number[] => [
  ...get(hist),
  ...f64At(acc, d),
  ...get(scale),
  F64_MUL,
  ...f64(255),
  F64_MIN,
  I32_TRUNC_F64_U,
  ...i32(2),
  I32_SHL,
  I32_ADD,
  ...set(addr),
  ...get(addr),
  ...get(addr),
  I32_LOAD,
  2,
  0,
  ...i32(1),
  I32_ADD,
  I32_STORE,
  2,
  0,
]

/**
 * `filter`: the touched documents that pass the filters (query.ts `collectRelevant`'s checks), in order, into
 * `out`; each counted in a histogram of 256 buckets of `acc * scale` (the last bucket takes the rest). Returns their count.
 */
function filterBody(): number[] {
  const [TOUCHED_, NT_, ACC_, KINDS, PROJECTS, TS, MASK, OK, SINCE, BEFORE, OUT, HIST, SCALE, J, M, D_, T, ADDR_] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
  ]
  // prettier-ignore
  return [
    BLOCK, EMPTY,
    LOOP, EMPTY, // br_if 0: the next document
    ...get(J), ...get(NT_), I32_GE_S, BR_IF, 1,
    ...nextOf(TOUCHED_, J, D_),
    ...get(MASK), ...get(KINDS), ...get(D_), I32_ADD, I32_LOAD8_U, 0, 0, ...i32(15), I32_AND, I32_ADD, I32_LOAD8_U, 0, 0,
    ...i32(1), I32_NE, BR_IF, 0,
    ...get(OK), ...get(PROJECTS), ...get(D_), ...i32(1), I32_SHL, I32_ADD, I32_LOAD16_U, 1, 0, I32_ADD, I32_LOAD8_U, 0, 0,
    ...i32(1), I32_NE, BR_IF, 0,
    ...f64At(TS, D_), ...set(T),
    ...get(T), ...get(SINCE), F64_LT, BR_IF, 0,
    ...get(T), ...get(BEFORE), F64_GE, BR_IF, 0,
    ...push(OUT, M, D_),
    ...bump(HIST, ACC_, D_, SCALE, ADDR_),
    BR, 0,
    END_OP,
    END_OP,
    ...get(M),
    END_OP,
  ]
}

/**
 * `cut`: keeps in `out` (in order) the documents of `src` (`out` itself, or `touched` when nothing was filtered)
 * whose `acc` times their boost's bound reaches `floor`; returns their count. The bound: `bounds[i]` (64 f64) for an age of `i` steps (`perStep`: steps per ms) up to the last, which also
 * takes a document without a time; one in the future takes the first.
 */
function cutBody(): number[] {
  const [SRC, OUT, M, ACC_, FLOOR, TS, NOW, PER_STEP, BOUNDS, J, W, D_, IDX, X_] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
  // prettier-ignore
  return [
    BLOCK, EMPTY,
    LOOP, EMPTY,
    ...get(J), ...get(M), I32_GE_S, BR_IF, 1,
    ...nextOf(SRC, J, D_),
    ...i32(63), ...set(IDX),
    ...f64At(TS, D_), ...set(X_),
    ...get(X_), ...f64(0), F64_GT, IF, EMPTY,
    ...get(NOW), ...get(X_), F64_SUB, ...get(PER_STEP), F64_MUL, ...set(X_),
    ...i32(0), ...set(IDX),
    ...get(X_), ...f64(0), F64_GE, IF, EMPTY,
    ...get(X_), ...f64(63), F64_MIN, I32_TRUNC_F64_U, ...set(IDX),
    END_OP,
    END_OP,
    ...f64At(ACC_, D_), ...get(BOUNDS), ...get(IDX), ...i32(3), I32_SHL, I32_ADD, F64_LOAD, 3, 0, F64_MUL, ...get(FLOOR), F64_LT, BR_IF, 0,
    ...push(OUT, W, D_),
    BR, 0,
    END_OP,
    END_OP,
    ...get(W),
    END_OP,
  ]
}

/** `histogram`: `filter`'s histogram of `touched[0 .. nt)` when no filter applies (every document passes); returns nt. */
function histogramBody(): number[] {
  const [TOUCHED_, NT_, ACC_, HIST, SCALE, J, D_, ADDR_] = [0, 1, 2, 3, 4, 5, 6, 7]
  // prettier-ignore
  return [
    BLOCK, EMPTY,
    LOOP, EMPTY,
    ...get(J), ...get(NT_), I32_GE_S, BR_IF, 1,
    ...nextOf(TOUCHED_, J, D_),
    ...bump(HIST, ACC_, D_, SCALE, ADDR_),
    BR, 0,
    END_OP,
    END_OP,
    ...get(NT_),
    END_OP,
  ]
}

/**
 * `find`: segment.ts `findTerm`'s scan of one dictionary block (`ptr .. end`, whose first hash is `h` and first
 * postings offset `at`) for the hash `want`; per term, varints of the hash's distance from the previous, its
 * document count and its postings' length, summed in doubles as the JavaScript's ByteReader does. Found: its count,
 * length and postings offset as three f64 at `result`, returns 1; absent: 0; bytes the JavaScript would reject: -1.
 */
function findBody(): number[] {
  const [PTR, END_, H, WANT, AT_, RESULT, X_, V_, SCALE, DF_, LEN] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
  /** ByteReader.varint into V_: at most 8 bytes (it rejects a scale past 2^49), -1 past `end`. */
  // prettier-ignore
  const varint = (): number[] => [
    ...get(PTR), ...get(END_), I32_GE_U, IF, EMPTY, ...RETURN_DAMAGED, END_OP,
    ...get(PTR), I32_LOAD8_U, 0, 0, ...set(X_),
    ...get(PTR), ...i32(1), I32_ADD, ...set(PTR),
    ...get(X_), ...i32(0x7f), I32_AND, F64_CONVERT_I32_U, ...set(V_),
    ...f64(128), ...set(SCALE),
    BLOCK, EMPTY,
    LOOP, EMPTY,
    ...get(X_), ...i32(0x80), I32_LT_U, BR_IF, 1,
    ...get(PTR), ...get(END_), I32_GE_U, IF, EMPTY, ...RETURN_DAMAGED, END_OP,
    ...get(SCALE), ...f64(2 ** 49), F64_GT, IF, EMPTY, ...RETURN_DAMAGED, END_OP,
    ...get(PTR), I32_LOAD8_U, 0, 0, ...set(X_),
    ...get(PTR), ...i32(1), I32_ADD, ...set(PTR),
    ...get(V_), ...get(X_), ...i32(0x7f), I32_AND, F64_CONVERT_I32_U, ...get(SCALE), F64_MUL, F64_ADD, ...set(V_),
    ...get(SCALE), ...f64(128), F64_MUL, ...set(SCALE),
    BR, 0,
    END_OP,
    END_OP,
  ]
  // prettier-ignore
  return [
    BLOCK, EMPTY,
    LOOP, EMPTY,
    ...get(PTR), ...get(END_), I32_GE_U, BR_IF, 1,
    ...varint(), ...get(H), ...get(V_), F64_ADD, ...set(H),
    ...varint(), ...get(V_), ...set(DF_),
    ...varint(), ...get(V_), ...set(LEN),
    ...get(H), ...get(WANT), F64_EQ, IF, EMPTY,
    ...get(RESULT), ...get(DF_), F64_STORE, 3, 0,
    ...get(RESULT), ...get(LEN), F64_STORE, 3, 8,
    ...get(RESULT), ...get(AT_), F64_STORE, 3, 16,
    ...i32(1), RETURN,
    END_OP,
    ...get(H), ...get(WANT), F64_GT, IF, EMPTY, ...i32(0), RETURN, END_OP,
    ...get(AT_), ...get(LEN), F64_ADD, ...set(AT_),
    BR, 0,
    END_OP,
    END_OP,
    ...i32(0),
    END_OP,
  ]
}

/** `clear`: zeroes `acc` (and `matched`, when not 0) at the documents of `touched[0 .. nt)` (query.ts `clear`). */
function clearBody(): number[] {
  const [TOUCHED_, NT_, ACC_, MATCHED_, J, D_] = [0, 1, 2, 3, 4, 5]
  // prettier-ignore
  return [
    BLOCK, EMPTY,
    LOOP, EMPTY,
    ...get(J), ...get(NT_), I32_GE_S, BR_IF, 1,
    ...nextOf(TOUCHED_, J, D_),
    ...get(ACC_), ...get(D_), ...i32(3), I32_SHL, I32_ADD, ...f64(0), F64_STORE, 3, 0,
    ...get(MATCHED_), IF, EMPTY,
    ...get(MATCHED_), ...get(D_), I32_ADD, ...i32(0), I32_STORE8, 0, 0,
    END_OP,
    BR, 0,
    END_OP,
    END_OP,
    ...get(NT_),
    END_OP,
  ]
}

const fn = (params: number[]): number[] => [0x60, ...vec(params.map((p) => [p])), ...vec([[I32]])]
const code = (locals: number[][], body: number[]): number[] => {
  const all = [...vec(locals), ...body]
  return [...uleb(all.length), ...all]
}

/** The module: memory imported as `m.mem` (any size); `add`, `filter`, `cut`, `find`, `clear` and `histogram` exported. */
export function moduleBytes(): Uint8Array {
  const types = [
    fn([I32, I32, I32, F64, F64, F64, I32, I32, I32, I32, I32, I32, I32, I32]),
    fn([I32, I32, I32, I32, I32, I32, I32, I32, F64, F64, I32, I32, F64]),
    fn([I32, I32, I32, I32, F64, I32, F64, F64, I32]),
    fn([I32, I32, F64, F64, F64, I32]),
    fn([I32, I32, I32, I32]),
    fn([I32, I32, I32, I32, F64]),
  ]
  const imports = [...name('m'), ...name('mem'), 0x02, 0x00, 0]
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(2, vec([imports])),
    ...section(3, vec([[0], [1], [2], [3], [4], [5]])),
    ...section(
      7,
      vec([
        [...name('add'), 0x00, 0],
        [...name('filter'), 0x00, 1],
        [...name('cut'), 0x00, 2],
        [...name('find'), 0x00, 3],
        [...name('clear'), 0x00, 4],
        [...name('histogram'), 0x00, 5],
      ]),
    ),
    ...section(
      10,
      vec([
        // add: AT..SHIFT i32, TF and A f64, ADDR i32; filter: J, M, D i32, T f64, ADDR i32; cut: J, W, D, IDX i32, X f64;
        // find: X i32, V, SCALE, DF, LEN f64; clear: J, D i32; histogram: J, D, ADDR i32.
        code(
          [
            [...uleb(6), I32],
            [...uleb(2), F64],
            [...uleb(1), I32],
          ],
          addBody(),
        ),
        code(
          [
            [...uleb(3), I32],
            [...uleb(1), F64],
            [...uleb(1), I32],
          ],
          filterBody(),
        ),
        code(
          [
            [...uleb(4), I32],
            [...uleb(1), F64],
          ],
          cutBody(),
        ),
        code(
          [
            [...uleb(1), I32],
            [...uleb(4), F64],
          ],
          findBody(),
        ),
        code([[...uleb(2), I32]], clearBody()),
        code([[...uleb(3), I32]], histogramBody()),
      ]),
    ),
  ])
}
