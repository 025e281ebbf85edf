/*
 * What the recorder keeps on the phone to go on with no network (used by recorder.js):
 *
 * - the store (IndexedDB, the browser's own): per match, the last state and kit the server gave,
 *   the entries waiting to be synced (each {action, at}), the server's clock as the phone
 *   reckons it, and a conflict the phone is showing. Every change is written before the page
 *   shows it, so no reload, closed tab or sleeping phone loses an entry;
 * - the engine (static/nardy/offline-worker.js: Pyodide running the server's own Python), which
 *   gives the board after the waiting entries, so only entries the server will take are offered;
 * - the service worker (recorder-sw.js), registered here, which brings the page back offline.
 *
 * window.NardyOffline = {store, Engine, register}.
 */
(function () {
  "use strict";

  var DATABASE = "nardy-recorder";
  var MATCHES = "matches";
  var opened = null;

  function database() {
    if (opened) return opened;
    opened = new Promise(function (resolve, reject) {
      if (!window.indexedDB) {
        reject(new Error("no IndexedDB"));
        return;
      }
      var request = window.indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(MATCHES, { keyPath: "match" });
      };
      request.onsuccess = function () {
        resolve(request.result);
      };
      request.onerror = function () {
        reject(request.error);
      };
    });
    return opened;
  }

  function transact(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(MATCHES, mode);
        var result;
        work(transaction.objectStore(MATCHES), function (value) {
          result = value;
        });
        transaction.oncomplete = function () {
          resolve(result);
        };
        transaction.onerror = transaction.onabort = function () {
          reject(transaction.error);
        };
      });
    });
  }

  var store = {
    // A match's record before the phone holds anything of it.
    blank: function (match) {
      return { match: match, state: null, kit: null, pending: [], offset: 0, conflict: null, view: null };
    },
    // The match's record: {match, state, kit, pending, offset, conflict, view}, or a blank one.
    read: function (match) {
      return transact("readonly", function (matches, done) {
        var request = matches.get(match);
        request.onsuccess = function () {
          done(request.result || store.blank(match));
        };
      });
    },
    // Written whole; resolved once it is on the phone's disk.
    write: function (record) {
      return transact("readwrite", function (matches) {
        matches.put(record);
      });
    },
  };

  // The rules engine in a worker, started on the first question (Pyodide takes a few seconds).
  function Engine(workerUrl, pyodideUrl, codeUrl) {
    this.workerUrl = workerUrl;
    this.pyodideUrl = pyodideUrl;
    this.codeUrl = codeUrl;
    this.worker = null;
    this.asked = 0;
    this.waiting = {};
    this.started = false;
  }

  // The board state after ``entries`` from ``kit`` (a Promise; rejected when the engine failed).
  Engine.prototype.after = function (kit, names, entries, now) {
    var self = this;
    this.started = true;
    if (!this.worker) {
      this.worker = new Worker(this.workerUrl, { type: "module" });
      this.worker.onmessage = function (event) {
        var answer = event.data;
        var waiting = self.waiting[answer.id];
        delete self.waiting[answer.id];
        if (!waiting) return;
        if (answer.error) waiting.reject(new Error(answer.error));
        else waiting.resolve(answer.state);
      };
    }
    this.asked += 1;
    var id = this.asked;
    return new Promise(function (resolve, reject) {
      self.waiting[id] = { resolve: resolve, reject: reject };
      self.worker.postMessage({ id: id, pyodide: self.pyodideUrl, code: self.codeUrl, kit: kit, names: names, entries: entries, now: now });
    });
  };

  // The service worker that keeps the recorder for a reload with no network (Resolved with
  // whether one controls this page now.)
  function register(url) {
    if (!("serviceWorker" in navigator) || !url) return Promise.resolve(false);
    return navigator.serviceWorker
      .register(url, { scope: "/" })
      .then(function () {
        return navigator.serviceWorker.ready;
      })
      .then(function () {
        return !!navigator.serviceWorker.controller;
      })
      .catch(function () {
        return false;
      });
  }

  window.NardyOffline = { store: store, Engine: Engine, register: register };
})();
