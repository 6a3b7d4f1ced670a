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
