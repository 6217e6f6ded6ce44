// A competition's countdown: every <time data-countdown> counts down to its datetime,
// in days, hours, minutes and seconds, once a second; at zero it says the phase is due
// (beat moves it on within seconds) and, if it reached zero while the page was open, the
// page reloads once a few seconds later to show the new phase.
(function () {
  "use strict";
  const nodes = document.querySelectorAll("time[data-countdown][datetime]");
  if (!nodes.length) return;
  let reloaded = false;
  const started = Date.now();

  function words(seconds) {
    const days = Math.floor(seconds / 86400);
    const hours = Math.floor((seconds % 86400) / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const rest = seconds % 60;
    if (days) return `${days} d ${hours} h ${minutes} min`;
    if (hours) return `${hours} h ${minutes} min ${rest} s`;
    if (minutes) return `${minutes} min ${rest} s`;
    return `${rest} s`;
  }

  function tick() {
    const now = Date.now();
    for (const node of nodes) {
      const at = new Date(node.getAttribute("datetime")).getTime();
      if (Number.isNaN(at)) continue;
      const left = Math.max(0, Math.round((at - now) / 1000));
      node.textContent = left ? `in ${words(left)}` : "now";
      if (!left && !reloaded && at > started && now - at > 6000) {
        reloaded = true;
        window.setTimeout(() => window.location.reload(), 2000);
      }
    }
  }

  tick();
  window.setInterval(tick, 1000);
})();
