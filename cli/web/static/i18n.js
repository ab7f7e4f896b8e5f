// The page's words in the player's language: the JSON the host makes from the same
// gettext catalogs as the terminal (cli/web/texts.py). Looked up by key; plural forms
// chosen with the catalog's own Plural-Forms expression; numbers grouped with the
// catalog language's separator, lists joined by the browser for the language.

export const LANGUAGES = ["en", "it", "nl", "pl"];

export async function loadTexts(language) {
  const response = await fetch(`/texts/${language}.json`, { cache: "no-cache" });
  if (!response.ok) throw new Error(`texts ${language}: ${response.status}`);
  return new Texts(await response.json());
}

export class Texts {
  constructor(data) {
    this.language = data.language;
    this.texts = data.texts;
    this.plurals = data.plurals;
    this.maps = data.maps;
    this.pluralIndex = compilePlural(data.plural);
    this.group = data.maps.number_group;
    this.lists = new Intl.ListFormat(this.language, { style: "long", type: "conjunction" });
  }

  has(key) { return key in this.texts; }

  // The text of ``key`` with its {placeholders} filled (the key itself if unknown).
  t(key, params = {}) {
    return fill(this.texts[key] ?? key, params);
  }

  // The plural form of ``key`` for ``n``.
  tn(key, n, params = {}) {
    const forms = this.plurals[key];
    if (!forms) return key;
    const index = Math.min(forms.length - 1, Math.max(0, this.pluralIndex(Math.abs(n))));
    return fill(forms[index], params);
  }

  // A whole number grouped as the terminal groups it (babel: "1.000" in Italian).
  number(n) {
    const digits = String(Math.abs(Math.trunc(n))).replace(/\B(?=(\d{3})+(?!\d))/g, this.group);
    return (n < 0 ? "-" : "") + digits;
  }
  list(items) { return this.lists.format(items); }
}

export function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    (name in params ? String(params[name]) : whole));
}

// A C plural expression (gettext's Plural-Forms) as a function of n, without eval.
export function compilePlural(source) {
  const tokens = source.match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%?:()<>!]/g) || [];
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const expect = (token) => { if (next() !== token) throw new Error(`plural: ${source}`); };

  function ternary() {
    const test = or();
    if (peek() !== "?") return test;
    next();
    const yes = ternary();
    expect(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  function binary(operand, table) {
    return () => {
      let left = operand();
      while (peek() in table) {
        const op = table[next()];
        const a = left;
        const b = operand();
        left = (n) => op(a(n), b(n));
      }
      return left;
    };
  }
  const primary = () => {
    const token = next();
    if (token === "n") return (n) => n;
    if (token === "(") { const inner = ternary(); expect(")"); return inner; }
    if (token === "!") { const inner = primary(); return (n) => Number(!inner(n)); }
    if (/^\d+$/.test(token ?? "")) { const value = Number(token); return () => value; }
    throw new Error(`plural: ${source}`);
  };
  const mul = binary(primary, { "*": (a, b) => a * b, "/": (a, b) => Math.trunc(a / b),
    "%": (a, b) => a % b });
  const add = binary(mul, { "+": (a, b) => a + b, "-": (a, b) => a - b });
  const rel = binary(add, { "<": (a, b) => Number(a < b), "<=": (a, b) => Number(a <= b),
    ">": (a, b) => Number(a > b), ">=": (a, b) => Number(a >= b) });
  const eq = binary(rel, { "==": (a, b) => Number(a === b), "!=": (a, b) => Number(a !== b) });
  const and = binary(eq, { "&&": (a, b) => Number(a && b) });
  const or = binary(and, { "||": (a, b) => Number(a || b) });

  const compiled = ternary();
  if (at !== tokens.length) throw new Error(`plural: ${source}`);
  return (n) => Number(compiled(n));
}
