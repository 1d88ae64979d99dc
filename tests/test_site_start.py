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
const [start, python, quick] = process.argv.slice(2);
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
    appendChild(script) {  // python.js runs; flutter_bootstrap.js is Flutter's: not here
      if (script.src === "python.js") eval(fs.readFileSync(python, "utf8"));
      setImmediate(() => script.onload && script.onload());
    },
  },
};
const workers = [];
class FakeWorker {  // Pyodide's worker: "initialized" as soon as it is told to start
  constructor(url) { this.url = url; this.posted = []; workers.push(this); }
  postMessage(data) {
    this.posted.push(data);
    if (data && data.pyodideUrl) {
      const done = () => this.onmessage && this.onmessage({ data: "initialized" });
      quick === "quick" ? queueMicrotask(done) : setTimeout(done, 50);
    }
  }
  terminate() {}
}
globalThis.Worker = FakeWorker;
eval(fs.readFileSync(start, "utf8"));
setTimeout(async () => {  // Flutter, loaded, asks for Python (python.js)
  const guard = setTimeout(() => { console.log("python.js never heard"); process.exit(1); }, 2000);
  await globalThis.jsConnect("http://site/", {}, () => {});
  clearTimeout(guard);
  const starts = workers.flatMap((w) => w.posted).filter((d) => d && d.pyodideUrl);
  console.log(`workers ${workers.length}, start messages ${starts.length}`);
  process.exit(workers.length === 1 && starts.length === 1 ? 0 : 1);
}, 20);
"""


@pytest.mark.parametrize("python", ["quick", "slow"])
def test_pythons_worker_is_handed_over_whenever_it_is_ready(python: str, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    import flet_web  # type: ignore[import-untyped]

    python_js = Path(flet_web.__file__).parent / "web" / "python.js"
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    ran = subprocess.run(
        [node, str(harness), str(START), str(python_js), python],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
