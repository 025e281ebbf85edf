/*
 * The rules engine in the page, for recording with no network: Pyodide (CPython in WebAssembly,
 * served from static/vendor/pyodide) runs the server's own Python of the recorder's board
 * (tournaments/matches/live/board.py and the engine it stands on, one zip). A module worker, so
 * the page stays responsive while Pyodide starts (a few seconds, once).
 *
 * Asked {id, pyodide, code, kit, names, entries, now}, it answers {id, state} with the board state
 * after the entries (board.after_entries), or {id, error} when it could not.
 */
let ready = null;

function start(pyodideUrl, codeUrl) {
  return (async function () {
    const { loadPyodide } = await import(pyodideUrl + "pyodide.mjs");
    const pyodide = await loadPyodide({ indexURL: pyodideUrl });
    const response = await fetch(codeUrl, { credentials: "same-origin" });
    if (!response.ok) throw new Error("the board's code: " + response.status);
    pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/offline" });
    pyodide.runPython("import sys\nsys.path.insert(0, '/offline')\nimport json\nfrom tournaments.matches.live.board import after_entries");
    return pyodide;
  })();
}

self.onmessage = async function (event) {
  const ask = event.data;
  try {
    if (!ready) {
      ready = start(ask.pyodide, ask.code);
      ready.catch(function () {
        ready = null; // asked again by the next entry
      });
    }
    const pyodide = await ready;
    pyodide.globals.set("asked", JSON.stringify({ kit: ask.kit, names: ask.names, entries: ask.entries, now: ask.now }));
    const answer = pyodide.runPython("_ = json.loads(asked)\njson.dumps(after_entries(_['kit'], _['names'], _['entries'], _['now']))");
    self.postMessage({ id: ask.id, state: JSON.parse(answer) });
  } catch (error) {
    self.postMessage({ id: ask.id, error: String(error && error.message ? error.message : error) });
  }
};
