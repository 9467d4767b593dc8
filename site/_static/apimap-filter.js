/* The table filter (the mapping tables, and the reverse lookup with data-direction="paddle"):
   searches the name index while the reader types, by name (as code writes it: F.softmax,
   x.permute), Chinese name, category, section and the paddle release a mapping holds for
   (measured by `apimap verify --matrix`; a record not measured holds for the pinned release).
   Enter or pasting a full name opens its page; a name with no page goes to the search page,
   which says whether it is a public API that is not covered yet. */
"use strict";

(function () {
  const LIMIT = 200;
  const lookup = window.apimapLookup;

  function cell(row, content, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    if (content instanceof Node) td.appendChild(content);
    else td.textContent = content;
    row.appendChild(td);
    return td;
  }

  /* An API name as code that may wrap after each dot, as the static tables write it. */
  function code(text) {
    const node = document.createElement("code");
    text.split(".").forEach((part, place) => {
      if (place) node.append(".", document.createElement("wbr"));
      node.append(part);
    });
    return node;
  }

  function pageLink(item) {
    const a = document.createElement("a");
    a.href = item.page;
    a.appendChild(code(item.api));
    return a;
  }

  function note(item) {
    if (item.relation === "a") return item.record + " 的别名";
    if (item.relation === "v") return item.record + " 的原位版本";
    return "";
  }

  function holds(item, release, index) {
    if (!release) return true;
    const position = index.releases.indexOf(release);
    if (item.releases === -1) return release === index.pinned;
    return Boolean(item.releases & (1 << position));
  }

  function matches(item, form, words, index) {
    if (form.release && !holds(item, form.release.value, index)) return false;
    const category = form.category ? form.category.value : "";
    const section = form.section ? form.section.value : "";
    if (category && item.category !== category) return false;
    if (section !== "" && String(item.section) !== section) return false;
    if (form.reverse && (item.category === "missing" || item.category === "composite")) return false;
    return lookup.filterMatch(item, words, form.reverse ? "paddle" : "torch");
  }

  function active(form, text) {
    return Boolean(
      text ||
        (form.category && form.category.value) ||
        (form.section && form.section.value) ||
        (form.release && form.release.value),
    );
  }

  /* A row as the static tables write it; the Chinese name's cell is the one a phone hides. */
  function row(item, reverse) {
    const tr = document.createElement("tr");
    const zh = document.createElement("span");
    zh.textContent = item.zh;
    if (note(item)) {
      const small = document.createElement("small");
      small.textContent = note(item);
      zh.append(document.createElement("br"), small);
    }
    if (reverse) {
      cell(tr, code(item.paddle));
      cell(tr, pageLink(item));
    } else {
      cell(tr, pageLink(item));
    }
    cell(tr, zh, "apimap-zh");
    if (!reverse) cell(tr, item.paddle === "-" ? "-" : code(item.paddle));
    cell(tr, item.label);
    return tr;
  }

  function update(form, index) {
    const text = form.text.value.trim().toLowerCase();
    const body = form.results.tBodies[0];
    body.replaceChildren();
    if (!active(form, text)) {
      form.results.hidden = true;
      form.status.textContent = "";
      return;
    }
    const words = form.text.value.trim().split(/\s+/).filter(Boolean);
    let found = index.rows.filter((item) => matches(item, form, words, index));
    if (text) {
      const order = new Map(lookup.rank(form.text.value, index).map((item, place) => [item, place]));
      found = found
        .map((item, place) => [order.has(item) ? order.get(item) : index.rows.length + place, item])
        .sort((a, b) => a[0] - b[0])
        .map((pair) => pair[1]);
    }
    for (const item of found.slice(0, LIMIT)) body.appendChild(row(item, form.reverse));
    form.results.hidden = found.length === 0;
    form.status.textContent =
      found.length === 0
        ? "没有符合条件的 API。按回车在全站搜索。"
        : found.length > LIMIT
          ? "找到 " + found.length + " 个 API，显示前 " + LIMIT + " 个。"
          : "找到 " + found.length + " 个 API。";
  }

  function open(form, index) {
    const item = lookup.resolve(form.text.value, index, form.reverse ? "paddle" : "torch");
    if (item) {
      window.location.assign(item.page);
      return true;
    }
    return false;
  }

  document.addEventListener("DOMContentLoaded", function () {
    const form = {
      text: document.getElementById("apimap-filter-text"),
      category: document.getElementById("apimap-filter-category"),
      section: document.getElementById("apimap-filter-section"),
      release: document.getElementById("apimap-filter-release"),
      status: document.getElementById("apimap-filter-status"),
      results: document.getElementById("apimap-filter-results"),
    };
    if (!form.text || !lookup) return;
    form.reverse = form.text.dataset.direction === "paddle";
    lookup.load().then((index) => {
      let timer = 0;
      const soon = () => {
        window.clearTimeout(timer);
        timer = window.setTimeout(() => update(form, index), 30);
      };
      for (const control of [form.text, form.category, form.section, form.release]) {
        if (control) control.addEventListener("input", soon);
      }
      form.text.addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        if (!open(form, index) && form.text.value.trim()) {
          window.location.assign(lookup.root() + "search.html?q=" + encodeURIComponent(form.text.value.trim()));
        }
      });
      form.text.addEventListener("paste", () => window.setTimeout(() => open(form, index), 0));
      form.text.dataset.ready = "1";
      update(form, index);
    });
  });
})();
