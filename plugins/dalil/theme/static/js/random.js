/* Dalil random discovery (/random/): a random listing from the search index, no server. */
(function () {
  "use strict";

  var root = document.getElementById("random-discovery");
  if (!root || !window.DalilSearch) return;
  var core = window.DalilSearch;
  var cardBox = document.getElementById("random-card");
  var status = document.getElementById("random-status");
  var next = document.getElementById("random-next");
  var base = root.dataset.base || "";
  var listings = [];
  var current = -1;

  function show() {
    // Never the same listing twice in a row when there is another one.
    var avoid = listings.length > 1 ? current : -1;
    var pick = Math.floor(Math.random() * (avoid >= 0 ? listings.length - 1 : listings.length));
    if (avoid >= 0 && pick >= avoid) pick += 1;
    current = pick;
    var entry = listings[pick];
    cardBox.replaceChildren(core.card(entry, base, "h2"));
    root.dataset.slug = entry.s;
  }

  next.addEventListener("click", show);

  status.textContent = dalilText("Choosing a listing…");
  core.loadIndex(root.dataset.index).then(function (entries) {
    // A card shows its category's name in the page's language: c_en, c_fr as entryAt gives.
    var categories = new Map();
    entries.forEach(function (entry) { if (entry.t === "category") categories.set(entry.s, entry); });
    listings = entries.filter(function (entry) { return entry.t === "listing"; }).map(function (entry) {
      var category = categories.get(entry.cs);
      return category ? Object.assign({ c_en: category.n_en, c_fr: category.n_fr }, entry) : entry;
    });
    if (!listings.length) {
      status.textContent = dalilText("The directory has no listings yet.");
      return;
    }
    status.textContent = "";
    next.disabled = false;
    show();
  }).catch(function () {
    status.textContent = dalilText("The directory could not be loaded. Check your internet connection, then reload the page.");
    status.className = "search-status error";
  });
})();
