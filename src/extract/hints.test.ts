import { describe, expect, it } from 'vitest'
import { MAX_HINTS, structuralHints } from './hints.js'

interface Row {
  name: string
  file: string
  added?: string[]
  removed?: string[]
  hints: string[]
}

const check = (rows: Row[]): void => {
  it.each(rows)('$name', (row) => {
    expect(structuralHints(row.file, { added: row.added ?? [], removed: row.removed ?? [] })).toEqual(row.hints)
  })
}

describe('TypeScript / JavaScript', () => {
  check([
    { name: 'exported async function', file: 'src/a.ts', added: ['export async function parseLine(s: string): Promise<Entry> {'], hints: ['+fn parseLine'] },
    { name: 'generator function', file: 'src/a.mjs', added: ['function* walk(dir) {'], hints: ['+fn walk'] },
    { name: 'default export function', file: 'src/a.jsx', added: ['export default function App() {'], hints: ['+fn App'] },
    { name: 'anonymous default export is skipped', file: 'src/a.js', added: ['export default function () {'], hints: [] },
    { name: 'arrow const', file: 'src/a.ts', added: ['export const toEntry = (raw: unknown): Entry | null => {'], hints: ['+fn toEntry'] },
    { name: 'async arrow, bare parameter', file: 'src/a.cjs', added: ['const run = async x => x + 1'], hints: ['+fn run'] },
    { name: 'function expression', file: 'src/a.js', added: ['const handler = function (req, res) {'], hints: ['+fn handler'] },
    { name: 'arrow with a function-typed annotation', file: 'src/a.ts', added: ['const f: (a: number) => void = (a) => {}'], hints: ['+fn f'] },
    {
      name: 'arrow with parameters on the next lines',
      file: 'src/a.ts',
      added: ['export const build = (', '  input: Input,', '): Output => {'],
      hints: ['+fn build'],
    },
    {
      name: 'class with its methods: the class only',
      file: 'src/store.ts',
      added: [
        'export class Store {',
        '  private items = new Map()',
        '  async save(entry: Entry): Promise<void> {',
        '    await this.flush()',
        '  }',
        '  get size(): number {',
        '    return 1',
        '  }',
        '}',
      ],
      hints: ['+class Store'],
    },
    { name: 'abstract class', file: 'src/a.ts', added: ['export abstract class Base<T> {'], hints: ['+class Base'] },
    { name: 'removed interface', file: 'src/a.ts', removed: ['export interface Old {', '  id: string', '}'], hints: ['-interface Old'] },
    { name: 'type alias', file: 'src/a.ts', added: ['export type Entry = {', 'type Pair<T> = [T, T]'], hints: ['+type Entry', '+type Pair'] },
    { name: 're-export of types is not a declaration', file: 'src/a.ts', added: ["export type { Entry } from './entry.js'"], hints: [] },
    { name: 'enum and const enum', file: 'src/a.ts', added: ['enum Color {', 'export const enum Kind {'], hints: ['+enum Color', '+enum Kind'] },
    { name: 'namespace', file: 'src/a.ts', added: ['export namespace Paths {'], hints: ['+mod Paths'] },
    {
      name: 'constants: exported or SCREAMING_CASE only',
      file: 'src/a.ts',
      added: [
        'export const MAX_LINES = 500',
        'const DEFAULT_TIMEOUT = 30_000',
        "const fs = require('node:fs')",
        'let count = 0',
        'export const config: Config = { a: 1 }',
      ],
      hints: ['+const MAX_LINES', '+const DEFAULT_TIMEOUT', '+const config'],
    },
    {
      name: 'signature change is modified',
      file: 'src/a.ts',
      removed: ['function parseLine(s: string) {'],
      added: ['function parseLine(s: string, opts: Options) {'],
      hints: ['~fn parseLine'],
    },
    {
      name: 'function turned into arrow const is modified',
      file: 'src/a.ts',
      removed: ['export function load() {'],
      added: ['export const load = async () => {'],
      hints: ['~fn load'],
    },
    {
      // Real Edit from the corpus (cc-2.1.219 windows session, website/src/components/Config.js).
      name: 'real rename in a .js file (corpus)',
      file: 'D:\\oh-my-posh\\website\\src\\components\\Config.js',
      removed: ['function OpenInStudioButton({ format, configText, disabled }) {'],
      added: ['function AddToStudioButton({ format, configText, disabled }) {'],
      hints: ['+fn AddToStudioButton', '-fn OpenInStudioButton'],
    },
    {
      name: 'method added to a class outside the diff',
      file: 'src/a.ts',
      added: ['  async save(entry: Entry): Promise<void> {', '    await write(entry)', '  }'],
      hints: ['+method save'],
    },
    {
      name: 'static and private methods',
      file: 'src/a.ts',
      added: ['  static from(raw: string): Store {', '  #reset() {'],
      hints: ['+method from', '+method #reset'],
    },
    {
      name: 'calls and control flow are not methods',
      file: 'src/a.test.ts',
      added: ["  it('works', () => {", "  describe('x', function () {", '  if (ready) {', '  beforeEach(() => {', '  } else if (x) {'],
      hints: [],
    },
    {
      name: 'methods of an object literal in the diff are covered by it',
      file: 'src/a.ts',
      added: ['export const api = {', '  get(id) {', '  },', '}'],
      hints: ['+const api'],
    },
    { name: 'indented function declarations are ignored', file: 'src/a.ts', added: ['  function helper() {'], hints: [] },
    { name: 'comment lines are ignored', file: 'src/a.ts', added: ['// function notReal() {', ' * class Nope'], hints: [] },
    { name: 'CRLF lines', file: 'src/a.tsx', added: ['export function Panel() {\r'], removed: ['export class Old {\r'], hints: ['+fn Panel', '-class Old'] },
    { name: 'upper-case extension', file: 'SRC/A.TS', added: ['class Store {'], hints: ['+class Store'] },
  ])
})

describe('Python', () => {
  check([
    {
      // Real Edit from the corpus (cc-2.1.14-tool-errors, src/math_utils.py).
      name: 'real added function (corpus)',
      file: '/tmp/tmpw6sk2trg/src/math_utils.py',
      added: ['', '', 'def multiply_numbers(a: int, b: int) -> int:', '    """Multiply two numbers together."""', '    return a * b'],
      hints: ['+fn multiply_numbers'],
    },
    { name: 'async def', file: 'a.py', added: ['async def fetch(url):'], hints: ['+fn fetch'] },
    { name: 'removed class', file: 'a.py', removed: ['class Old(Base):', '    def run(self):', '        pass'], hints: ['-class Old'] },
    { name: 'signature change', file: 'a.py', removed: ['def parse_line(line):'], added: ['def parse_line(line, strict=False):'], hints: ['~fn parse_line'] },
    {
      name: 'method added to a class outside the diff',
      file: 'a.py',
      added: ['    @property', '    def size(self) -> int:', '        return 1'],
      hints: ['+method size'],
    },
    { name: 'nested function is not listed', file: 'a.py', added: ['def outer():', '    def inner():', '        pass'], hints: ['+fn outer'] },
    { name: 'deeply indented def is ignored', file: 'a.py', added: ['        def deep(self):'], hints: [] },
    {
      name: 'module constants',
      file: 'a.py',
      added: ['MAX_LINES = 500', 'TIMEOUT: float = 2.5', 'value = 3', 'X == 1'],
      hints: ['+const MAX_LINES', '+const TIMEOUT'],
    },
    { name: 'stub file', file: 'a.pyi', added: ['class Store: ...'], hints: ['+class Store'] },
  ])
})

describe('Go', () => {
  check([
    {
      // Real Edit from the corpus (cc-2.1.5-api-error-compact2, cli/resume.go).
      name: 'real signature change (corpus)',
      file: '/Users/soph/Work/entire/devenv/cli/cmd/entire/cli/resume.go',
      removed: ['func resumeSession(sessionID, checkpointID string) error {'],
      added: [
        '// If force is false, prompts for confirmation when local logs have newer timestamps.',
        'func resumeSession(sessionID, checkpointID string, force bool) error {',
      ],
      hints: ['~fn resumeSession'],
    },
    {
      // Real Edit from the corpus (cc-2.1.17-long-compact2-askuser, integration_test/hooks.go).
      name: 'real method added (corpus)',
      file: 'cli/integration_test/hooks.go',
      added: [
        '// SimulateUserPromptSubmitWithTranscriptPath is a convenience method on TestEnv.',
        'func (env *TestEnv) SimulateUserPromptSubmitWithTranscriptPath(sessionID, transcriptPath string) error {',
        '  env.T.Helper()',
        '}',
        '',
      ],
      hints: ['+fn TestEnv.SimulateUserPromptSubmitWithTranscriptPath'],
    },
    {
      // Real Edit from the corpus (cc-2.1.219 windows session, src/prompt/engine.go).
      name: 'real constant added (corpus)',
      file: 'D:\\oh-my-posh\\src\\prompt\\engine.go',
      added: ['// DefaultRPromptBreathingRoom is how many cells a shell keeps free', 'const DefaultRPromptBreathingRoom = 30', ''],
      hints: ['+const DefaultRPromptBreathingRoom'],
    },
    {
      name: 'value receiver and generic receiver',
      file: 'a.go',
      added: ['func (Point) String() string {', 'func (s *Set[T]) Add(v T) {'],
      hints: ['+fn Point.String', '+fn Set.Add'],
    },
    { name: 'generic function', file: 'a.go', added: ['func Map[T, U any](xs []T, f func(T) U) []U {'], hints: ['+fn Map'] },
    {
      name: 'struct, interface, other type',
      file: 'a.go',
      added: ['type Cursor struct {', 'type ID string', 'type List[T any] struct {'],
      removed: ['type Reader interface {'],
      hints: ['+struct Cursor', '+type ID', '+struct List', '-interface Reader'],
    },
    { name: 'grouped declarations and bodies are ignored', file: 'a.go', added: ['type (', 'const (', '\tfunc() {}', '\tx := 1'], hints: [] },
    { name: 'removed function', file: 'a.go', removed: ['func TestOld(t *testing.T) {'], hints: ['-fn TestOld'] },
  ])
})

describe('Rust', () => {
  check([
    {
      name: 'function visibilities and qualifiers',
      file: 'src/lib.rs',
      added: ['fn a() {', 'pub fn b() -> u8 {', 'pub(crate) fn c() {', 'pub(in crate::x) async fn d() {', 'pub const fn e() {', 'unsafe extern "C" fn f() {'],
      hints: ['+fn a', '+fn b', '+fn c', '+fn d', '+fn e', '+fn f'],
    },
    {
      name: 'struct, enum, trait',
      file: 'src/lib.rs',
      added: ['pub struct Cursor {', 'enum Kind {', 'pub trait Reader {'],
      hints: ['+struct Cursor', '+enum Kind', '+trait Reader'],
    },
    {
      name: 'trait impl with its methods: the impl only',
      file: 'src/lib.rs',
      added: ['impl Reader for File {', '    fn read(&mut self) -> usize {', '        0', '    }', '}'],
      hints: ['+impl Reader for File'],
    },
    {
      name: 'generic impl',
      file: 'src/lib.rs',
      added: ['impl<T: Clone> fmt::Display for Wrapper<T> where T: Debug {'],
      hints: ['+impl fmt::Display for Wrapper'],
    },
    { name: 'inherent impl', file: 'src/lib.rs', removed: ['impl Store {'], hints: ['-impl Store'] },
    { name: 'method added to an impl outside the diff', file: 'src/lib.rs', added: ['    pub fn save(&self) -> io::Result<()> {'], hints: ['+method save'] },
    {
      name: 'mod, type alias, const, static',
      file: 'src/lib.rs',
      added: ['mod tests {', 'pub type Result<T> = std::result::Result<T, Error>;', 'pub const MAX_LINES: usize = 500;', 'static mut COUNT: u32 = 0;'],
      hints: ['+mod tests', '+type Result', '+const MAX_LINES', '+const COUNT'],
    },
    { name: 'associated type inside an impl is ignored', file: 'src/lib.rs', added: ['    type Item = u32;'], hints: [] },
    {
      name: 'signature change',
      file: 'src/lib.rs',
      removed: ['pub fn parse(input: &str) -> Entry {'],
      added: ['pub fn parse(input: &str) -> Result<Entry> {'],
      hints: ['~fn parse'],
    },
    { name: 'removed struct', file: 'src/lib.rs', removed: ['#[derive(Debug)]', 'struct Old;'], hints: ['-struct Old'] },
  ])
})

describe('Java, C#, Kotlin, Ruby', () => {
  check([
    { name: 'Java class and method', file: 'A.java', added: ['public final class Store {', '    public void save(Entry e) {'], hints: ['+class Store'] },
    { name: 'Java method in an existing class', file: 'A.java', added: ['    @Override', '    public List<String> names() {'], hints: ['+method names'] },
    {
      name: 'Java record and interface',
      file: 'A.java',
      added: ['public record Point(int x, int y) {'],
      removed: ['interface Old {'],
      hints: ['+record Point', '-interface Old'],
    },
    {
      name: 'C# async method and struct',
      file: 'A.cs',
      added: ['        public async Task<int> CountAsync() {', 'public readonly struct Cursor'],
      hints: ['+method CountAsync', '+struct Cursor'],
    },
    {
      name: 'Kotlin fun, data class, object',
      file: 'A.kt',
      added: ['fun parseLine(s: String): Entry {', 'data class Entry(val a: Int)', 'object Registry {'],
      hints: ['+fn parseLine', '+class Entry', '+object Registry'],
    },
    { name: 'Kotlin extension fun', file: 'A.kts', added: ['fun <T> List<T>.second(): T = this[1]'], hints: ['+fn second'] },
    { name: 'Kotlin member fun in an existing class', file: 'A.kt', added: ['    override suspend fun run() {'], hints: ['+method run'] },
    {
      name: 'Ruby def, class, module',
      file: 'a.rb',
      added: ['module Store', '  class Entry', '    def save!', 'def helper(x)'],
      hints: ['+mod Store', '+class Entry', '+fn helper'],
    },
    { name: 'Ruby method in an existing class', file: 'a.rb', added: ['  def self.load(path)'], hints: ['+method load'] },
  ])
})

describe('general rules', () => {
  check([
    { name: 'unknown extension', file: 'README.md', added: ['function notCode() {'], hints: [] },
    { name: 'no extension', file: 'Makefile', added: ['def x():'], hints: [] },
    { name: 'dotfile', file: '.ts', added: ['class A {'], hints: [] },
    { name: 'duplicates collapse', file: 'a.ts', added: ['function a() {', 'function a() {'], hints: ['+fn a'] },
    {
      name: 'added first (in order), then removed-only',
      file: 'a.py',
      added: ['def b():', 'def a():'],
      removed: ['def c():', 'def a():', 'class D:'],
      hints: ['+fn b', '~fn a', '-fn c', '-class D'],
    },
    { name: 'same name, different kind', file: 'a.ts', added: ['interface Store {'], removed: ['class Store {'], hints: ['+interface Store', '-class Store'] },
    { name: 'very long lines are skipped', file: 'a.js', added: ['function min(){' + 'x'.repeat(5000) + '}'], hints: [] },
  ])

  it(`caps the list at ${MAX_HINTS}`, () => {
    const added = Array.from({ length: 30 }, (_, i) => `def f${i}():`)
    const hints = structuralHints('a.py', { added, removed: [] })
    expect(hints).toHaveLength(MAX_HINTS)
    expect(hints[0]).toBe('+fn f0')
    expect(hints[MAX_HINTS - 1]).toBe(`+fn f${MAX_HINTS - 1}`)
  })

  it('never throws on malformed input', () => {
    const bad = { added: [null, 42, undefined] as unknown as string[], removed: undefined as unknown as string[] }
    expect(structuralHints('a.ts', bad)).toEqual([])
  })
})

describe('many declarations', () => {
  it('keeps the first MAX_HINTS added ones, marked modified when also removed, and no removed-only ones', () => {
    const added = Array.from({ length: 40 }, (_, i) => `export function f${i}(x: number) {`)
    const removed = ['export function f3(x: string) {', 'export function gone() {', 'export function f30(x: string) {']
    const hints = structuralHints('src/a.ts', { added, removed })
    expect(hints).toEqual(Array.from({ length: MAX_HINTS }, (_, i) => `${i === 3 ? '~' : '+'}fn f${i}`))
  })
})
