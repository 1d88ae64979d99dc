// Starts Debrief's static site (tools/publish.py puts this in place of Flet's two scripts):
// first the service worker, so that every file this visit fetches is kept for the next start
// without a network; then Flet's client. A browser without service workers (a page on plain
// HTTP) starts the app all the same, online only.
(async () => {
  try {
    await keptByTheServiceWorker();
  } catch (error) {
    console.warn("Debrief works online only here:", error);
  }
  if (navigator.storage && navigator.storage.persist) {
    navigator.storage.persist(); // the browser may then not evict the data to make room
  }
  await script("python.js");
  pythonStartedEarly();
  script("flutter_bootstrap.js");
})();

// Flet's client starts Python's worker (python.js) only once Flutter has loaded and asks for
// it; here it starts at once, so that Python starts while Flutter loads. The
// worker handed to python.js then is this one: what it said before python.js listened is
// given to python.js's listener, and python.js's own start message, already sent, is dropped.
function pythonStartedEarly() {
  const script = new URL("python-worker.js", document.baseURI).href;
  let started = new Worker(script, { type: "module" });
  const early = [];
  started.onmessage = (event) => early.push(event);
  started.postMessage({
    pyodideUrl: flet.pyodideUrl,
    args: {}, // what Flutter gives python.js for an app of its own (a script it runs is not)
    documentUrl: document.URL,
    appPackageUrl: flet.appPackageUrl,
    micropipIncludePre: flet.micropipIncludePre,
    pythonModuleName: flet.pythonModuleName,
  });
  const Native = window.Worker;
  window.Worker = function (url, options) {
    if (!started || new URL(url, document.baseURI).href !== script) {
      return new Native(url, options);
    }
    const worker = started;
    started = null;
    window.Worker = Native;
    let startMessage = true;
    return {
      get onmessage() {
        return worker.onmessage;
      },
      set onmessage(listener) {
        worker.onmessage = listener;
        // Handed on once python.js has gone on to wait for them: it sets this listener
        // before it makes what the listener calls (a worker that was quicker than Flutter
        // has said "initialized" already).
        queueMicrotask(() => early.splice(0).forEach((event) => worker.onmessage?.(event)));
      },
      get onerror() {
        return worker.onerror;
      },
      set onerror(listener) {
        worker.onerror = listener;
      },
      postMessage(data, transfer) {
        if (startMessage) {
          startMessage = false; // sent already, at the page's start
          return;
        }
        worker.postMessage(data, transfer);
      },
      terminate() {
        worker.terminate();
      },
    };
  };
}

async function keptByTheServiceWorker() {
  if (!("serviceWorker" in navigator)) throw new Error("no service workers");
  const registration = await navigator.serviceWorker.register("sw.js");
  const installing = registration.installing || registration.waiting;
  if (navigator.serviceWorker.controller || !installing) return; // kept, or a forced reload
  await new Promise((resolve, reject) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    installing.addEventListener("statechange", () => {
      if (installing.state === "redundant") reject(new Error("the service worker failed"));
    });
    if (navigator.serviceWorker.controller) resolve(); // claimed before the listener was there
  });
}

function script(source) {
  return new Promise((resolve, reject) => {
    const element = document.createElement("script");
    element.src = source;
    element.onload = resolve;
    element.onerror = reject;
    document.body.appendChild(element);
  });
}
