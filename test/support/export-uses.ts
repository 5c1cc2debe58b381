// Who imports each export of the sources, read from the syntax alone (no type checker: every file of the repository
// parsed in well under a second): named and namespace imports, re-exports (`export *` too), `await import()` taken
// apart or used as a namespace, and `import('…').Name` in types. What it cannot see it counts as a use of every export
// of that module (a namespace passed on whole, a dynamic import not awaited into a name), so it errs towards "used".
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One export and the other files that import it (repository paths, '/'-separated). */
export interface ExportUse {
  file: string;
  name: string;
  importers: string[];
  local: boolean; // its name is used in its own file besides where it is declared and exported
}

const ALL = '*';

/** The .ts files under the folders, as repository paths, sorted. */
function sourcesUnder(root: string, folders: readonly string[]): string[] {
  return folders
    .flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.split(/[\\/]/).includes('node_modules'))
        .map((f) => join(folder, f).split('\\').join('/')),
    )
    .sort();
}

function resolveSpecifier(root: string, file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined; // a package
  return relative(root, resolve(root, dirname(file), specifier))
    .split('\\')
    .join('/')
    .replace(/\.js$/, '.ts');
}

interface Parsed {
  exports: Map<string, ts.Node>; // name -> its declaration's name node (or export specifier)
  uses: [module: string, name: string][]; // what this file takes from other modules (ALL: every export)
  identifiers: Map<string, number>; // how often each identifier occurs in the file
}

function parse(root: string, file: string): Parsed {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const parsed: Parsed = { exports: new Map(), uses: [], identifiers: new Map() };
  const namespaces = new Map<string, string>(); // a local name bound to a whole module -> that module
  const moduleOf = (node: ts.Expression | undefined) => (node && ts.isStringLiteralLike(node) ? resolveSpecifier(root, file, node.text) : undefined);
  const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const module = moduleOf(statement.moduleSpecifier);
      const clause = statement.importClause;
      if (!module || !clause) continue;
      if (clause.name) parsed.uses.push([module, 'default']);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, module);
      else if (bindings) for (const e of bindings.elements) parsed.uses.push([module, (e.propertyName ?? e.name).text]);
    } else if (ts.isExportDeclaration(statement)) {
      const module = moduleOf(statement.moduleSpecifier);
      const clause = statement.exportClause;
      if (!clause) {
        if (module) parsed.uses.push([module, ALL]); // export * from
      } else if (ts.isNamespaceExport(clause)) {
        if (module) parsed.uses.push([module, ALL]);
        parsed.exports.set(clause.name.text, clause.name);
      } else
        for (const e of clause.elements) {
          parsed.exports.set(e.name.text, e);
          if (module) parsed.uses.push([module, (e.propertyName ?? e.name).text]);
        }
    } else if (ts.isExportAssignment(statement)) parsed.exports.set('default', statement);
    else if (exported(statement)) {
      if (ts.isVariableStatement(statement))
        for (const d of statement.declarationList.declarations) for (const name of boundNames(d.name)) parsed.exports.set(name.text, name);
      else {
        const name = (statement as ts.DeclarationStatement).name;
        const isDefault = (ts.getModifiers(statement as ts.HasModifiers) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
        if (name && ts.isIdentifier(name)) parsed.exports.set(isDefault ? 'default' : name.text, name);
      }
    }
  }

  const walk = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) parsed.identifiers.set(node.text, (parsed.identifiers.get(node.text) ?? 0) + 1);
    if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      const module = ts.isLiteralTypeNode(argument) ? moduleOf(argument.literal as ts.Expression) : undefined;
      if (module) parsed.uses.push([module, node.qualifier ? leftmost(node.qualifier) : ALL]);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const module = moduleOf(node.arguments[0]);
      if (module) dynamicImport(node, module);
    }
    node.forEachChild(walk);
  };
  // `const { a, b } = await import('x')` takes a and b; `const m = await import('x')` is a namespace; anything else all
  const dynamicImport = (call: ts.CallExpression, module: string) => {
    const awaited = ts.isAwaitExpression(call.parent) ? call.parent : undefined;
    const declaration = awaited && ts.isVariableDeclaration(awaited.parent) ? awaited.parent : undefined;
    if (declaration && ts.isObjectBindingPattern(declaration.name))
      for (const e of declaration.name.elements) parsed.uses.push([module, ((e.propertyName ?? e.name) as ts.Identifier).text]);
    else if (declaration && ts.isIdentifier(declaration.name)) namespaces.set(declaration.name.text, module);
    else if (awaited && ts.isPropertyAccessExpression(awaited.parent)) parsed.uses.push([module, awaited.parent.name.text]);
    else parsed.uses.push([module, ALL]);
  };
  walk(source);

  // a namespace's members as `ns.name`; the namespace used any other way (passed on, spread) takes every export
  const members = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && namespaces.has(node.text) && !ts.isNamespaceImport(node.parent)) {
      const module = namespaces.get(node.text)!;
      const parent = node.parent;
      if (
        (ts.isPropertyAccessExpression(parent) || ts.isQualifiedName(parent)) &&
        (ts.isPropertyAccessExpression(parent) ? parent.expression : parent.left) === node
      )
        parsed.uses.push([module, (ts.isPropertyAccessExpression(parent) ? parent.name : parent.right).text]);
      else if (!(ts.isVariableDeclaration(parent) && parent.name === node)) parsed.uses.push([module, ALL]);
    }
    node.forEachChild(members);
  };
  if (namespaces.size > 0) members(source);
  return parsed;
}

function boundNames(name: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(name)) return [name];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : boundNames(e.name)));
}

function leftmost(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : leftmost(name.left);
}

/**
 * Every export of the files under `exporters` with the files under `readers` that import it (the exporter's own
 * file never counts). `readers` should hold every folder that may import the sources: tests, benches, scripts.
 */
export function exportUses(root: string, exporters: readonly string[], readers: readonly string[]): ExportUse[] {
  const files = [...new Set([...sourcesUnder(root, exporters), ...sourcesUnder(root, readers)])];
  const parsed = new Map(files.map((f) => [f, parse(root, f)]));
  const importers = new Map<string, Set<string>>(); // `${module}#${name}` -> importing files
  for (const [file, p] of parsed)
    for (const [module, name] of p.uses) {
      const names = name === ALL ? [...(parsed.get(module)?.exports.keys() ?? [])] : [name];
      for (const n of names) {
        const key = `${module}#${n}`;
        if (module !== file) importers.set(key, (importers.get(key) ?? new Set()).add(file));
      }
    }
  const own = new Set(sourcesUnder(root, exporters));
  return [...parsed]
    .filter(([file]) => own.has(file))
    .flatMap(([file, p]) =>
      [...p.exports.keys()].map((name) => {
        // the name once where declared, and once more in an `export { name }` list
        const node = p.exports.get(name)!;
        const declared = ts.isExportSpecifier(node) && !node.parent.parent.moduleSpecifier ? 2 : 1;
        return {
          file,
          name,
          importers: [...(importers.get(`${file}#${name}`) ?? [])].sort(),
          local: (p.identifiers.get(name) ?? 0) > declared,
        };
      }),
    );
}
