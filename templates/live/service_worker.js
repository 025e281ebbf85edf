{% autoescape off %}/*
 * The recorder's service worker (tournaments.web.live.recorder_service_worker): the recorder
 * comes back in a club hall with no network. Workbox, served as the site's own files, keeps
 * the page's scripts, Pyodide and the Python of the board (precached, each by the digest of its
 * content), and each recorder page the phone opened (network first, its last copy when the
 * network is gone). The page keeps its waiting entries itself (IndexedDB, static/nardy/offline.js).
 * Spectators' pages and the API are left to the network.
 */
importScripts("{{ workbox }}workbox-sw.js");
workbox.setConfig({ modulePathPrefix: "{{ workbox }}", debug: false });
workbox.core.skipWaiting();
workbox.core.clientsClaim();

// The precached files are the same for everyone, but the site's own views answer with "Vary:
// Cookie, Accept-Language", which the cache would match on: a request with other cookies than the
// worker's own (it has none) would miss it. The header is dropped from what is kept.
workbox.precaching.addPlugins([
  {
    cacheWillUpdate: async function (context) {
      var response = context.response;
      if (!response || !response.ok || !response.headers.has("Vary")) return response;
      var headers = new Headers(response.headers);
      headers.delete("Vary");
      return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: headers });
    },
  },
]);
workbox.precaching.precacheAndRoute({{ precache_json }});
workbox.precaching.cleanupOutdatedCaches();

workbox.routing.registerRoute(
  function (context) {
    return context.request.method === "GET" && /^\/m\/\d+\/record\/$/.test(context.url.pathname);
  },
  new workbox.strategies.NetworkFirst({ cacheName: "nardy-recorder-pages", networkTimeoutSeconds: 5 })
);
{% endautoescape %}
