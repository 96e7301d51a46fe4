// New Eleusis' hand: ticking cards for a string remembers the order they were ticked in
// (NE-7.2: "in an order they choose"), shows it on each card and sends it as "order";
// at most 4 cards. Without JavaScript the ticked cards go in the hand's order.
(function () {
  "use strict";
  var MAX = 4;
  function picked(form) {
    var field = form.querySelector("#play-order");
    return field && field.value ? field.value.split(",") : [];
  }
  function draw(form, order) {
    form.querySelector("#play-order").value = order.join(",");
    form.querySelectorAll("input[name=cards]").forEach(function (box) {
      var at = order.indexOf(box.value);
      var badge = box.parentNode.querySelector(".order");
      if (badge) { badge.textContent = at >= 0 && order.length > 1 ? String(at + 1) : ""; }
      box.disabled = at < 0 && order.length >= MAX;
    });
  }
  document.addEventListener("change", function (evt) {
    var box = evt.target;
    if (!box || box.name !== "cards" || !box.form || box.form.id !== "play-form") { return; }
    var order = picked(box.form).filter(function (id) { return id !== box.value; });
    if (box.checked) { order.push(box.value); }
    draw(box.form, order);
  });
})();
