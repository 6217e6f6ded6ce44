// Times typed in a form's datetime-local fields are the user's own: put the browser's
// time zone in the form's hidden `zone` field and its name where the page says it, and
// turn a default the server rendered in UTC (data-utc) into the browser's time.
(function () {
  "use strict";
  let zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return; // no zone known: the fields stay in UTC, as the page says
  }
  if (!zone) return;
  const pad = (n) => String(n).padStart(2, "0");
  const local = (date) =>
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  document.querySelectorAll("form").forEach((form) => {
    const hidden = form.querySelector("input[data-zone]");
    if (!hidden) return;
    if (hidden.value && hidden.value !== "UTC" && hidden.value !== zone) {
      zone = hidden.value; // a refused form comes back in the zone it was typed in
    }
    hidden.value = zone;
    form.querySelectorAll("[data-zone-name]").forEach((name) => {
      name.textContent = zone;
    });
    form.querySelectorAll("input[data-local-time][data-utc]").forEach((input) => {
      const utc = new Date(input.dataset.utc);
      if (!Number.isNaN(utc.getTime())) input.value = local(utc);
    });
  });
})();
