// A tournament page while it takes entries or runs: ask the server for the page every few
// seconds (every half minute while it only takes entries) and, when what it shows has moved on (its data-version), put in the new
// standings, bracket and games, keeping where the bracket was scrolled. The page asked
// for is the round the reader chose (data-page-url carries ?round=), or by default the
// round being played. Once the tournament is over, stop asking.
(function () {
  "use strict";
  const POLL_MS = { running: 4000, entry: 30000 };

  function current() {
    return document.getElementById("tournament-live");
  }

  function carryOver(old, fresh) {
    for (const details of old.querySelectorAll("details[id]")) {
      const twin = fresh.querySelector(`details[id="${details.id}"]`);
      if (twin) twin.open = details.open;
    }
    const scroller = old.querySelector("#bracket-scroll");
    const next = fresh.querySelector("#bracket-scroll");
    if (scroller && next) {
      window.requestAnimationFrame(() => { next.scrollLeft = scroller.scrollLeft; });
    }
  }

  async function poll() {
    const live = current();
    if (!live || !Object.hasOwn(POLL_MS, live.dataset.status)) return;
    try {
      const response = await fetch(live.dataset.pageUrl, { headers: { Accept: "text/html" } });
      if (response.ok) {
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const fresh = page.getElementById("tournament-live");
        if (fresh && fresh.dataset.version !== live.dataset.version) {
          const adopted = document.importNode(fresh, true);
          carryOver(live, adopted);
          live.replaceWith(adopted);
          if (window.agonLocalTimes) window.agonLocalTimes(adopted);
        }
      }
    } catch (error) {
      // The server may be restarting: try again at the next tick.
    }
    schedule();
  }

  function schedule() {
    const live = current();
    const wait = live && Object.hasOwn(POLL_MS, live.dataset.status) && POLL_MS[live.dataset.status];
    if (wait) window.setTimeout(poll, wait);
  }

  schedule();
})();
