// `agon view`'s page: the viewer (viewer.js) fetches its timeline, and this page carries
// it (#agon-timeline), so that one request is answered here, with no network.
(function () {
  "use strict";
  const timeline = JSON.parse(document.getElementById("agon-timeline").textContent);
  const timelineUrl = document.querySelector("section.viewer").dataset.timelineUrl;
  const networkFetch = window.fetch ? window.fetch.bind(window) : null;
  window.fetch = function (url, options) {
    const text = String(url);
    if (!text.startsWith(timelineUrl)) {
      return networkFetch ? networkFetch(url, options) : Promise.reject(new Error("offline"));
    }
    const since = Number(new URLSearchParams(text.split("?")[1] || "").get("since") || 0);
    const body = Object.assign({}, timeline, { since: since, steps: timeline.steps.slice(since) });
    return Promise.resolve(new Response(JSON.stringify(body), {
      headers: { "Content-Type": "application/json" },
    }));
  };
})();
