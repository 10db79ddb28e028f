// Forms of the back office: a select marked data-autosubmit sends its form
// when it changes (the preset of a ruleset form shows its own options), so
// the button that does the same without JavaScript is hidden.
"use strict";
document.querySelectorAll("select[data-autosubmit]").forEach((select) => {
  select.addEventListener("change", () => select.form.submit());
  select.form.querySelectorAll("[data-hide-with-script]").forEach((b) => { b.hidden = true; });
});
