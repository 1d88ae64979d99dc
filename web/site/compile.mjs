// Compiles the site's Python to bytecode with the very Python the site runs (Pyodide's, here
// in Node.js), so that a start in the browser reads bytecode instead of compiling each module
// it imports (seconds on a phone), and keeps the code of the app's dataclasses' methods
// (web/site/site_main.py). Used by tools/publish.py:
//     node compile.mjs PYODIDE_DIR FOLDER
// Every FOLDER/**/*.py becomes a .pyc beside it, without docstrings or asserts (nothing in the
// app or its packages reads a docstring; its asserts only narrow types) (the source removed: the site serves less); a
// file that does not compile is left as it is.
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, folder] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const python = await loadPyodide({ indexURL: pyodideDir + path.sep });
python.FS.mkdir("/stage");
python.FS.mount(python.FS.filesystems.NODEFS, { root: path.resolve(folder) }, "/stage");
python.runPython(`
import os, py_compile, warnings
warnings.simplefilter("ignore")  # old escapes in a package's strings: still valid code
left = 0
for root, _, names in os.walk("/stage"):
    for name in names:
        if name.endswith(".py"):
            source = os.path.join(root, name)
            try:
                py_compile.compile(
                    source,
                    cfile=source + "c",
                    doraise=True,
                    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                    optimize=2,  # without docstrings and asserts: a fifth less to download
                )
            except py_compile.PyCompileError:
                left += 1
                continue
            os.remove(source)
print(f"compiled; {left} left as source")
`);
// The methods of the app's dataclasses, compiled now rather than at each start
// (web/site/site_main.py): the app imported once, here, from what was just compiled.
python.runPython(`
import sys
sys.path[:0] = ["/stage/app", "/stage/app/__pypackages__"]
try:
    import site_main
    print(f"{site_main.record()} dataclass methods' code kept")
except Exception as error:  # the site works without them, starting slower
    print(f"the dataclasses' code was not kept: {error!r}")
`);
