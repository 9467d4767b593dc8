/* Names as people write them (torch.nn.functional.interpolate, F.interpolate, nn.Conv2d,
   x.permute, paddle.nn.Conv2D, torch.concat), looked up in the name index the build writes
   (_static/apimap-names.json): the table filter, the reverse lookup and the search page use it.
   Every address is relative to the page (data-content_root), so the site works below any base. */
"use strict";

(function () {
  const PREFIXES = [
    ["F.", "torch.nn.functional."],
    ["nn.functional.", "torch.nn.functional."],
    ["nn.init.", "torch.nn.init."],
    ["init.", "torch.nn.init."],
    ["nn.", "torch.nn."],
    ["optim.", "torch.optim."],
    ["lr_scheduler.", "torch.optim.lr_scheduler."],
    ["data.", "torch.utils.data."],
    ["linalg.", "torch.linalg."],
    ["fft.", "torch.fft."],
    ["special.", "torch.special."],
    ["TF.", "torchvision.transforms.functional."],
    ["T.", "torchvision.transforms."],
    ["transforms.", "torchvision.transforms."],
    ["models.", "torchvision.models."],
    ["Tensor.", "torch.Tensor."],
    ["th.", "torch."],
  ];
  const ROOTS = ["torch.", "torchvision.", "paddle.", "einops."];

  function root() {
    return document.documentElement.dataset.content_root || "";
  }

  function pageOf(api) {
    return root() + encodeURI("api/" + api.replace(/([A-Z])/g, "^$1") + ".html");
  }

  let loading = null;

  /* The name index as objects: {api, zh, paddle, category, section, record, relation, releases,
     page}, with the category's value and label. */
  function load() {
    if (!loading) {
      loading = fetch(root() + "_static/apimap-names.json")
        .then((answer) => answer.json())
        .then((data) => {
          const rows = data.rows.map((row) => ({
            api: row[0],
            zh: row[1],
            paddle: row[2],
            category: data.categories[row[3]][0],
            label: data.categories[row[3]][1],
            section: row[4],
            record: row[5] || row[0],
            relation: row[6],
            releases: row[7],
            page: pageOf(row[5] || row[0]),
          }));
          return { rows: rows, releases: data.releases, pinned: data.pinned, sections: data.sections };
        });
    }
    return loading;
  }

  function clean(query) {
    return query.trim().replace(/\s*\(.*$/s, "").replace(/\s+/g, "");
  }

  /* The full names a name written in code may stand for, most likely first. */
  function candidates(query) {
    const name = clean(query);
    if (!/^[A-Za-z_][\w.]*$/.test(name)) return [];
    if (ROOTS.some((prefix) => name.startsWith(prefix)) || name === "torch") return [name];
    for (const [prefix, full] of PREFIXES) {
      if (name.startsWith(prefix)) return [full + name.slice(prefix.length)];
    }
    const parts = name.split(".");
    if (parts.length === 2) return ["torch.Tensor." + parts[1], "torch." + name];
    return ["torch." + name];
  }

  /* Whether a name without a dot (Conv2d, softmax) is the last part of several names
     (torch.nn.Conv2d, torch.conv2d, torch.nn.functional.conv2d): then no page opens, and the
     search page lists every match. */
  function ambiguous(query, index) {
    const word = clean(query).toLowerCase();
    if (!word || word.includes(".")) return false;
    return index.rows.filter((row) => last(row.api).toLowerCase() === word).length > 1;
  }

  /* The one row a query names exactly (its record's page opens), or null. */
  function resolve(query, index, direction) {
    if (direction !== "paddle" && ambiguous(query, index)) return null;
    const key = direction === "paddle" ? "paddle" : "api";
    for (const name of candidates(query)) {
      const exact = index.rows.filter((row) => row[key] === name);
      const own = direction === "paddle" ? exact.filter((row) => row.relation === "") : exact;
      if (own.length === 1) return own[0];
      const lower = name.toLowerCase();
      const loose = index.rows.filter(
        (row) => row[key].toLowerCase() === lower && (direction !== "paddle" || row.relation === ""),
      );
      if (loose.length === 1) return loose[0];
    }
    if (direction !== "paddle") return resolve(query, index, "paddle");
    return null;
  }

  function last(name) {
    return name.slice(name.lastIndexOf(".") + 1);
  }

  /* How well a row matches a query: 0 is best, Infinity is no match. */
  function score(row, text, names) {
    const lower = text.toLowerCase();
    for (const name of names) {
      if (row.api === name) return 0;
    }
    const word = last(clean(text));
    // a name written without its module (Conv2d) says its case, not its module
    for (const name of word === clean(text) ? [] : names) {
      if (row.api.toLowerCase() === name.toLowerCase()) return 1;
    }
    if (word && last(row.api) === word) return 2;
    if (word && last(row.api).toLowerCase() === word.toLowerCase()) return 3;
    if (row.paddle === clean(text) || row.paddle.toLowerCase() === lower) return 4;
    if (word && last(row.api).toLowerCase().startsWith(word.toLowerCase())) return 5;
    if (row.zh.includes(text.trim())) return 6;
    if (row.api.toLowerCase().includes(lower) || names.some((name) => row.api.startsWith(name))) return 7;
    if (row.paddle.toLowerCase().includes(lower)) return 8;
    return Infinity;
  }

  /* Rows that match the query, best first: exact names, then the last part of the name, then
     the Chinese name, then any part of a name; a record's own name before its aliases. */
  function rank(query, index) {
    const text = query.trim();
    if (!text) return [];
    const names = candidates(text);
    const found = [];
    for (const row of index.rows) {
      const value = score(row, text, names);
      if (value !== Infinity) found.push([value, row]);
    }
    found.sort(
      (a, b) =>
        a[0] - b[0] ||
        (a[1].relation === "" ? 0 : 1) - (b[1].relation === "" ? 0 : 1) ||
        a[1].api.length - b[1].api.length ||
        (a[1].api < b[1].api ? -1 : a[1].api > b[1].api ? 1 : 0),
    );
    return found.map((item) => item[1]);
  }

  /* Whether a row matches what is typed in the table filter: every word is part of a name, the
     Chinese name or the paddle name, or names the row the way code writes it (F.softmax). */
  function filterMatch(row, words, direction) {
    const haystack = (
      direction === "paddle" ? row.paddle : row.api + " " + row.paddle + " " + row.record + " " + row.zh
    ).toLowerCase();
    return words.every((word) => {
      if (haystack.includes(word.toLowerCase())) return true;
      return candidates(word).some((name) => haystack.includes(name.toLowerCase()));
    });
  }

  window.apimapLookup = {
    load: load,
    root: root,
    pageOf: pageOf,
    candidates: candidates,
    resolve: resolve,
    rank: rank,
    filterMatch: filterMatch,
  };
})();
