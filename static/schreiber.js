// Schreiber's only script: keep the screen awake on an open scoreboard, and let the
// "undo" note fade after a few seconds. Everything else works without JavaScript.
(function () {
  "use strict";
  let lock = null;
  async function keepAwake() {
    if (!("wakeLock" in navigator)) return;
    if (!document.querySelector("[data-wake-lock]:not([hidden])")) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", function () { lock = null; });
    } catch (e) {
      lock = null; // not allowed now (battery saver, hidden tab): try again when visible
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && lock === null) keepAwake();
  });
  document.addEventListener("DOMContentLoaded", function () {
    keepAwake();
    document.querySelectorAll("[data-undo]").forEach(function (note) {
      setTimeout(function () { note.classList.add("faded"); }, 8000);
    });
  });
})();
