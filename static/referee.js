// The Referee link (templates/scorepad/_referee_link.html) carries the trump that the deal
// form has chosen, where known, so that the Referee page opens with it: ?trump=hearts.
// Everything else on the Referee page is plain forms (htmx swaps the answer in).
(function () {
  "use strict";
  document.addEventListener("click", function (evt) {
    const link = evt.target.closest && evt.target.closest("a[data-referee-link]");
    if (!link) return;
    const trump = document.querySelector("#deal-form input[name=trump]:checked");
    if (!trump) return;
    const url = new URL(link.href, document.baseURI);
    url.searchParams.set("trump", trump.value);
    link.href = url.pathname + url.search;
  });
})();

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
