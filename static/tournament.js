/* The register field at the door (docs/tournaments.md, "Registering players"): Enter sends
   the name and empties the field at once, the cursor staying there, so that the next name
   can be typed while the answer is on its way; the names go out one after another in the
   order typed, and the players' list (and a refusal, at the field, with its name) come back
   by htmx. Without a script the form posts as any form. */
(function () {
  "use strict";

  function setUp(form) {
    if (form.dataset.ready) return;
    form.dataset.ready = "1";
    var name = form.querySelector("[name=name]");
    var category = form.querySelector("[name=category]");
    var queue = Promise.resolve();
    var pending = 0;
    form.dataset.pending = "0";

    function settled(typed) {
      pending -= 1;
      form.dataset.pending = String(pending);
      var refused = document.querySelector("#register-error[data-refused]");
      if (refused) {
        name.setAttribute("aria-invalid", "true");
        name.setAttribute("aria-describedby", "register-error");
        if (!name.value) { name.value = typed; name.select(); }
      } else {
        name.removeAttribute("aria-invalid");
        name.removeAttribute("aria-describedby");
      }
    }

    form.addEventListener("submit", function (event) {
      if (!window.htmx) return;  // no htmx: the form posts as any form
      event.preventDefault();
      var typed = name.value.trim();
      if (!typed) return;
      var values = {action: "register", name: typed, category: category ? category.value : ""};
      name.value = "";
      name.focus();
      pending += 1;
      form.dataset.pending = String(pending);
      queue = queue.then(function () {
        // the CSRF header comes from the body's hx-headers, as for every htmx request
        return htmx.ajax("POST", window.location.pathname, {
          target: "#players", swap: "outerHTML", values: values});
      }).then(function () { settled(typed); }, function () { settled(typed); });
    });
  }

  function all() {
    document.querySelectorAll("form[data-register]").forEach(setUp);
  }
  document.addEventListener("DOMContentLoaded", all);
  document.addEventListener("htmx:load", all);
})();
