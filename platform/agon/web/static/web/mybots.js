// My bots: while a version is being validated, ask the server every two seconds how
// it stands, and reload the page once it has been decided (active or rejected).
(function () {
  "use strict";
  const script = document.currentScript;
  const url = script && script.dataset.statusUrl;
  function watched() {
    const rows = document.querySelectorAll("[data-version][data-status='validating']");
    return Array.from(rows, (row) => row.dataset.version);
  }
  async function poll() {
    const ids = watched();
    if (!url || ids.length === 0) return;
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const states = (await response.json()).versions;
        if (ids.some((id) => states[id] && states[id] !== "validating")) {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      // The server may be restarting: try again at the next tick.
    }
    window.setTimeout(poll, 2000);
  }
  window.setTimeout(poll, 2000);
})();
