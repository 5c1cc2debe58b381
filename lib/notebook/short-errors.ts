// In a notebook cell an error of the library reads as one line, "NotFoundError: reservoir not found: ...": Deno's
// kernel shows an error's stack and tslab prints it with util.inspect, and the frames inside the library tell a
// notebook user nothing. Scripts and servers keep the full stack.

/** True inside a Jupyter kernel of Deno or tslab. */
function inNotebookKernel(): boolean {
  const deno = (globalThis as { Deno?: { jupyter?: unknown } }).Deno;
  return deno?.jupyter !== undefined || '__tslab__' in globalThis;
}

/** Makes the error's stack its one line "<name>: <message>" when running in a notebook kernel. */
export function shortenInNotebook(error: Error): void {
  if (!inNotebookKernel()) return;
  const line = `${error.name}: ${error.message}`;
  error.stack = line;
  Object.defineProperty(error, Symbol.for('nodejs.util.inspect.custom'), { value: () => line });
}
