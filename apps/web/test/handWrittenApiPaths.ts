import { posix } from 'node:path';
import ts from 'typescript';

/**
 * Finds API paths written by hand in the web app's sources (docs/decisions/endpoints-in-contracts.md, "Guard"):
 *
 * - a string or template literal that starts with `/api/`;
 * - a path built by appending to an API path: a template literal whose head is an API path and whose text goes on
 *   with `/` or `?` (`${projectApiPath(d, p)}/trials`, `${base}/runs/${id}`, `${url}?page=2`), or the same with `+`.
 *
 * An API path is a `pathOf(...)` call, a literal as above, or a name whose value (a constant, a function's or arrow's
 * answer, a member of an object of helpers, followed through relative imports) is one. Values that come in through a
 * function's parameters are not followed. A prefix that ends at the `/` or `?` (`key.startsWith(`${list}?`)`, an SWR
 * key filter) appends nothing and is not a path.
 */

/** A file's declared values by name (`name`, or `object.member` for an object literal's members) and its imports. */
interface FileScope {
  values: Map<string, ts.Expression[]>;
  /** Local name → the file (relative, resolved) and the name it has there. */
  imports: Map<string, { file: string; name: string }>;
}

function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isNonNullExpression(current)
  )
    current = current.expression;
  return current;
}

/** The expressions a function answers: its expression body, or its `return` values. */
function answers(body: ts.ConciseBody | undefined): ts.Expression[] {
  if (!body) return [];
  if (!ts.isBlock(body)) return [body];
  const found: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node) && node.expression) found.push(node.expression);
    if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

/** A `name` or `object.member` reference, or null for anything else. */
function nameOf(expression: ts.Expression): string | null {
  const node = unwrap(expression);
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression))
    return `${node.expression.text}.${node.name.text}`;
  return null;
}

function resolveImport(files: ReadonlyMap<string, string>, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (files.has(candidate)) return candidate;
  return null;
}

function scopeOf(files: ReadonlyMap<string, string>, file: string, source: ts.SourceFile): FileScope {
  const values = new Map<string, ts.Expression[]>();
  const imports = new Map<string, { file: string; name: string }>();
  const add = (name: string, expressions: ts.Expression[]) =>
    values.set(name, [...(values.get(name) ?? []), ...expressions]);
  const valuesOf = (initializer: ts.Expression): ts.Expression[] => {
    const node = unwrap(initializer);
    return ts.isArrowFunction(node) || ts.isFunctionExpression(node) ? answers(node.body) : [node];
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolveImport(files, file, node.moduleSpecifier.text);
      const bindings = node.importClause?.namedBindings;
      if (target && bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements)
          imports.set(element.name.text, { file: target, name: (element.propertyName ?? element.name).text });
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const name = node.name.text;
      add(name, valuesOf(node.initializer));
      const object = unwrap(node.initializer);
      if (ts.isObjectLiteralExpression(object))
        for (const member of object.properties) {
          if (!member.name || !(ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) continue;
          const key = `${name}.${member.name.text}`;
          if (ts.isPropertyAssignment(member)) add(key, valuesOf(member.initializer));
          else if (ts.isMethodDeclaration(member)) add(key, answers(member.body));
          else if (ts.isShorthandPropertyAssignment(member)) add(key, [member.name]);
        }
    }
    if (ts.isFunctionDeclaration(node) && node.name) add(node.name.text, answers(node.body));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { values, imports };
}

const isApiText = (text: string) => text.startsWith('/api/');
/** Text appended to an API path that makes it another path: a segment or a query, not a bare `/` or `?`. */
const appends = (text: string, more: boolean) => /^[/?]/.test(text) && (text.length > 1 || more);

/**
 * The app's files (as given: relative paths with `/`, sources) that write an API path by hand, sorted. `files`
 * holds every file imports may name; only `scanned` files are reported (all of them when absent).
 */
export function filesWithHandWrittenApiPaths(
  files: ReadonlyMap<string, string>,
  scanned: (file: string) => boolean = () => true,
): string[] {
  const sources = new Map<string, ts.SourceFile>();
  const scopes = new Map<string, FileScope>();
  const parsed = (file: string) => {
    let source = sources.get(file);
    if (!source) {
      source = ts.createSourceFile(file, files.get(file) ?? '', ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
      sources.set(file, source);
    }
    let scope = scopes.get(file);
    if (!scope) {
      scope = scopeOf(files, file, source);
      scopes.set(file, scope);
    }
    return { source, scope };
  };

  const known = new Map<string, boolean>();
  /** Whether `name` (`x` or `x.member`) holds an API path (or answers one) in `file`. */
  const isApiName = (file: string, name: string): boolean => {
    const key = `${file}#${name}`;
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    known.set(key, false); // a cycle answers no
    const { scope } = parsed(file);
    let result = (scope.values.get(name) ?? []).some((value) => isApi(file, value));
    if (!result) {
      const [head = name, member] = name.split('.');
      const imported = scope.imports.get(head);
      if (imported) result = isApiName(imported.file, member ? `${imported.name}.${member}` : imported.name);
    }
    known.set(key, result);
    return result;
  };

  const isApi = (file: string, expression: ts.Expression): boolean => {
    const node = unwrap(expression);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return isApiText(node.text);
    if (ts.isTemplateExpression(node))
      return isApiText(node.head.text) || (node.head.text === '' && isApi(file, node.templateSpans[0]!.expression));
    if (ts.isBinaryExpression(node)) {
      const operator = node.operatorToken.kind;
      if (operator === ts.SyntaxKind.PlusToken) return isApi(file, node.left);
      if (operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.BarBarToken)
        return isApi(file, node.left) || isApi(file, node.right);
      return false;
    }
    if (ts.isConditionalExpression(node)) return isApi(file, node.whenTrue) || isApi(file, node.whenFalse);
    if (ts.isCallExpression(node)) {
      const callee = nameOf(node.expression);
      return callee === 'pathOf' || (callee !== null && isApiName(file, callee));
    }
    const name = nameOf(node);
    return name !== null && isApiName(file, name);
  };

  const writesPathByHand = (file: string): boolean => {
    const { source } = parsed(file);
    let found = false;
    const visit = (node: ts.Node): void => {
      if (found) return;
      if (
        ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && isApiText(node.text)) ||
        (ts.isTemplateHead(node) && isApiText(node.text))
      )
        found = true;
      else if (ts.isTemplateExpression(node) && node.head.text === '') {
        const [first, ...rest] = node.templateSpans;
        found = first !== undefined && appends(first.literal.text, rest.length > 0) && isApi(file, first.expression);
      } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
        const right = unwrap(node.right);
        const text =
          ts.isStringLiteral(right) || ts.isNoSubstitutionTemplateLiteral(right)
            ? right.text
            : ts.isTemplateExpression(right)
              ? `${right.head.text}…`
              : null;
        found = text !== null && appends(text, false) && isApi(file, node.left);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  };

  return [...files.keys()].filter((file) => scanned(file) && writesPathByHand(file)).sort();
}
