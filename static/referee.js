// htmx re-renders the Referee form after every tap: a details section opened by hand (the
// rules picker, the scores) stays open.
(function () {
  "use strict";
  let open = [];
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "referee-form") return;
    open = Array.prototype.slice.call(evt.detail.target.querySelectorAll("details[data-keep-open][open]"))
      .map(function (d) { return d.dataset.keepOpen; });
  });
  document.addEventListener("htmx:afterSwap", function () {
    open.forEach(function (name) {
      const d = document.querySelector('#referee-form details[data-keep-open="' + name + '"]');
      if (d) d.open = true;
    });
    open = [];
  });
})();
