/* Dalil search worker: fetches, parses and prepares the search page's index off the
   page's thread (the head of the index in parts: its vocabulary normalised, stemmed and
   sorted), then hands it over to the page (its typed arrays transferred, not copied)
   and ends. The page loads the parts each query needs and searches them on each
   keystroke without a round trip to another thread. The worker's name is the index's
   URL, so that its fetch starts before search-core.js is loaded rather than after. */
"use strict";
var response = fetch(self.name, { credentials: "same-origin" });
importScripts("search-core.js");

self.DalilSearch.loadIndex(self.name, response).then(function (data) {
  var index = self.DalilSearch.prepareIndex(data);
  self.postMessage({ type: "index", index: index }, self.DalilSearch.transferList(index));
  self.close();
}).catch(function (error) {
  self.postMessage({ type: "error", message: String(error) });
});
