/**
 * The fake RESO server's `$filter`: a small OData expression parser and evaluator (`and`, `or`,
 * `not`, parentheses, `eq ne gt ge lt le` over string, Edm.Date, Edm.DateTimeOffset, number,
 * boolean and null literals).
 */
import { ODataError } from './answers.ts';
import { KNOWN_FIELDS, type ResoRecord } from './records.ts';

type Literal =
  | { type: 'string'; value: string }
  | { type: 'date'; value: string }
  | { type: 'datetime'; value: number }
  | { type: 'number'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'null' };
type Operator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
type Expression =
  | { kind: 'and' | 'or'; left: Expression; right: Expression }
  | { kind: 'not'; operand: Expression }
  | { kind: 'compare'; field: string; operator: Operator; literal: Literal };

const OPERATORS = new Set<string>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const isOperator = (word: string): word is Operator => OPERATORS.has(word);

type Token =
  { type: 'open' } | { type: 'close' } | { type: 'word'; text: string } | { type: 'literal'; literal: Literal };

/** An Edm.DateTimeOffset literal; `$orderby` also sorts such strings by time. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})/;
const DATE = /^\d{4}-\d{2}-\d{2}(?![\dT])/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/;
const WORD = /^[A-Za-z_][A-Za-z0-9_]*/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let rest = text;
  while (rest.length > 0) {
    const space = /^\s+/.exec(rest);
    if (space) {
      rest = rest.slice(space[0].length);
      continue;
    }
    if (rest.startsWith('(')) {
      tokens.push({ type: 'open' });
      rest = rest.slice(1);
      continue;
    }
    if (rest.startsWith(')')) {
      tokens.push({ type: 'close' });
      rest = rest.slice(1);
      continue;
    }
    if (rest.startsWith("'")) {
      let value = '';
      let index = 1;
      for (;;) {
        if (index >= rest.length) throw new ODataError('Unterminated string literal in $filter');
        const char = rest[index];
        if (char === "'") {
          if (rest[index + 1] === "'") {
            value += "'";
            index += 2;
            continue;
          }
          break;
        }
        value += char;
        index += 1;
      }
      tokens.push({ type: 'literal', literal: { type: 'string', value } });
      rest = rest.slice(index + 1);
      continue;
    }
    const dateTime = DATE_TIME.exec(rest);
    if (dateTime) {
      const value = Date.parse(dateTime[0]);
      if (Number.isNaN(value)) throw new ODataError(`Bad DateTimeOffset literal ${dateTime[0]}`);
      tokens.push({ type: 'literal', literal: { type: 'datetime', value } });
      rest = rest.slice(dateTime[0].length);
      continue;
    }
    const date = DATE.exec(rest);
    if (date) {
      tokens.push({ type: 'literal', literal: { type: 'date', value: date[0] } });
      rest = rest.slice(date[0].length);
      continue;
    }
    const number = NUMBER.exec(rest);
    if (number) {
      tokens.push({ type: 'literal', literal: { type: 'number', value: Number(number[0]) } });
      rest = rest.slice(number[0].length);
      continue;
    }
    const word = WORD.exec(rest);
    if (word) {
      const text = word[0];
      if (text === 'null') tokens.push({ type: 'literal', literal: { type: 'null' } });
      else if (text === 'true' || text === 'false') {
        tokens.push({ type: 'literal', literal: { type: 'boolean', value: text === 'true' } });
      } else tokens.push({ type: 'word', text });
      rest = rest.slice(text.length);
      continue;
    }
    throw new ODataError(`Syntax error in $filter at '${rest.slice(0, 20)}'`);
  }
  return tokens;
}

/** Parses a `$filter` expression; throws ODataError on bad syntax or an unknown property. */
export function parseFilter(text: string): Expression {
  const tokens = tokenize(text);
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isWord = (token: Token | undefined, text: string): boolean => token?.type === 'word' && token.text === text;

  function orExpression(): Expression {
    let left = andExpression();
    while (isWord(peek(), 'or')) {
      position += 1;
      left = { kind: 'or', left, right: andExpression() };
    }
    return left;
  }
  function andExpression(): Expression {
    let left = unary();
    while (isWord(peek(), 'and')) {
      position += 1;
      left = { kind: 'and', left, right: unary() };
    }
    return left;
  }
  function unary(): Expression {
    if (isWord(peek(), 'not')) {
      position += 1;
      return { kind: 'not', operand: unary() };
    }
    const token = peek();
    if (token?.type === 'open') {
      position += 1;
      const inner = orExpression();
      if (peek()?.type !== 'close') throw new ODataError("Expected ')' in $filter");
      position += 1;
      return inner;
    }
    if (token?.type !== 'word') throw new ODataError('Expected a property name in $filter');
    position += 1;
    if (!KNOWN_FIELDS.has(token.text)) {
      throw new ODataError(`Could not find a property named '${token.text}' on type 'Property'.`);
    }
    const operator = peek();
    if (operator?.type !== 'word' || !isOperator(operator.text)) {
      throw new ODataError(`Expected a comparison operator after ${token.text} in $filter`);
    }
    position += 1;
    const literal = peek();
    if (literal?.type !== 'literal') throw new ODataError(`Expected a literal after ${token.text} ${operator.text}`);
    position += 1;
    return { kind: 'compare', field: token.text, operator: operator.text, literal: literal.literal };
  }

  const expression = orExpression();
  if (position !== tokens.length) throw new ODataError('Unexpected text at the end of $filter');
  return expression;
}

function compare(operator: Operator, order: number): boolean {
  switch (operator) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'gt':
      return order > 0;
    case 'ge':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'le':
      return order <= 0;
  }
}

/** -1, 0 or 1 for a value against a literal, or null when they cannot be compared (false). */
function order(value: unknown, literal: Literal): number | null {
  const sign = (a: number | string, b: number | string): number => (a < b ? -1 : a > b ? 1 : 0);
  switch (literal.type) {
    case 'string':
      return typeof value === 'string' ? sign(value, literal.value) : null;
    case 'date':
      return typeof value === 'string' ? sign(value.slice(0, 10), literal.value) : null;
    case 'datetime': {
      const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      return Number.isNaN(time) ? null : sign(time, literal.value);
    }
    case 'number':
      return typeof value === 'number' ? sign(value, literal.value) : null;
    case 'boolean':
      return typeof value === 'boolean' ? sign(Number(value), Number(literal.value)) : null;
    case 'null':
      return null;
  }
}

export function matches(record: ResoRecord, expression: Expression): boolean {
  switch (expression.kind) {
    case 'and':
      return matches(record, expression.left) && matches(record, expression.right);
    case 'or':
      return matches(record, expression.left) || matches(record, expression.right);
    case 'not':
      return !matches(record, expression.operand);
    case 'compare': {
      const value = record[expression.field] ?? null;
      if (expression.literal.type === 'null') {
        if (expression.operator === 'eq') return value === null;
        if (expression.operator === 'ne') return value !== null;
        return false;
      }
      if (value === null) return expression.operator === 'ne';
      const result = order(value, expression.literal);
      return result === null ? false : compare(expression.operator, result);
    }
  }
}
