"""The static site's loader (web/site/start.js) with Flet's own python.js, in Node.js: Python's
worker, started at the page's start, is handed to python.js whether it finished before Flutter
asked for it or after. (Under a loaded machine Flutter came second: python.js set its listener,
was given "initialized" at once, and called what it had not made yet; the app never started.)
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
START = ROOT / "web" / "site" / "start.js"

HARNESS = r"""
const fs = require("fs");
const [start, python, when] = process.argv.slice(2);
const workers = [];
globalThis.window = globalThis;
globalThis.navigator = {};  // no service worker: the loader goes on at once
globalThis.flet = {
  pyodideUrl: "./pyodide/pyodide.mjs", appPackageUrl: "app.zip", entrypointBaseUrl: "/",
  pythonModuleName: "main",
};
globalThis.document = {
  baseURI: "http://site/", URL: "http://site/",
  createElement: () => ({}),
  body: {
    appendChild(script) {
      if (script.src === "python.js") {
        eval(fs.readFileSync(python, "utf8"));
        queueMicrotask(() => script.onload());
      } else if (script.src === "flutter_bootstrap.js") {
        queueMicrotask(flutterAsksForPython);  // Flutter, loaded, asks python.js for Python
      }
    },
  },
};
class FakeWorker {  // Pyodide's worker: says "initialized" once `ready` is called
  constructor(url) { this.posted = []; workers.push(this); }
  postMessage(data) {
    this.posted.push(data);
    if (data && data.pyodideUrl && when === "before") this.ready();  // quicker than Flutter
  }
  ready() { this.onmessage && this.onmessage({ data: "initialized" }); }
  terminate() {}
}
globalThis.Worker = FakeWorker;
async function flutterAsksForPython() {
  const connected = globalThis.jsConnect("http://site/", {}, () => {});
  if (when === "after") workers[0].ready();  // python.js is waiting for it by now
  const heard = await Promise.race([connected.then(() => true), new Promise((done) => {
    setImmediate(() => setImmediate(() => done(false)));  // every promise settled by then
  })]);
  const starts = workers.flatMap((w) => w.posted).filter((d) => d && d.pyodideUrl);
  console.log(`heard ${heard}, workers ${workers.length}, start messages ${starts.length}`);
  process.exit(heard && workers.length === 1 && starts.length === 1 ? 0 : 1);
}
eval(fs.readFileSync(start, "utf8"));
"""


@pytest.mark.parametrize("ready", ["before", "after"])
def test_pythons_worker_is_handed_over_whenever_it_is_ready(ready: str, tmp_path: Path) -> None:
    """Ready before Flutter asks for it (python.js then hears at once), or after."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    import flet_web  # type: ignore[import-untyped]

    python_js = Path(flet_web.__file__).parent / "web" / "python.js"
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    ran = subprocess.run(
        [node, str(harness), str(START), str(python_js), ready],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
