// The server writes times in UTC and says so; the reader lives in a zone of their own.
// Every <time data-local="…"> is rewritten in the browser's time zone, with the zone's
// short name, and keeps the UTC time in its title. `data-local` is the shape: "short"
// (28 Nov, 14:05) or "full" (2026-11-28 14:05). Pages that replace a part of themselves
// call window.agonLocalTimes(part) on the new part.
(function () {
  "use strict";
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const pad = (n) => String(n).padStart(2, "0");

  function zoneName(date) {
    try {
      const parts = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" }).formatToParts(date);
      const part = parts.find((p) => p.type === "timeZoneName");
      return part ? part.value : "";
    } catch (error) {
      return "";
    }
  }

  function shown(date, shape) {
    const clock = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
    if (shape === "short") return `${date.getDate()} ${MONTHS[date.getMonth()]}, ${clock}`;
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${clock}`;
  }

  function localTimes(root) {
    for (const node of (root || document).querySelectorAll("time[data-local][datetime]")) {
      if (node.dataset.localDone) continue;
      const date = new Date(node.getAttribute("datetime"));
      if (Number.isNaN(date.getTime())) continue;
      node.title = node.textContent.trim();
      const zone = zoneName(date);
      node.textContent = zone ? `${shown(date, node.dataset.local)} ${zone}` : shown(date, node.dataset.local);
      node.dataset.localDone = "1";
    }
  }

  window.agonLocalTimes = localTimes;
  localTimes(document);
})();
