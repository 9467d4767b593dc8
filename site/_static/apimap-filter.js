/* The table filter: searches window.APIMAP_INDEX by name, category, section and the paddle
   release a mapping holds for (measured by `apimap verify --matrix`; a record not measured
   is known to hold for the pinned release only). */
"use strict";

(function () {
  const LIMIT = 200;

  function cell(row, content) {
    const td = document.createElement("td");
    if (content instanceof Node) {
      td.appendChild(content);
    } else {
      td.textContent = content;
    }
    row.appendChild(td);
  }

  function link(text, href) {
    const a = document.createElement("a");
    a.textContent = text;
    a.href = href;
    return a;
  }

  function holds(item, release, pinned) {
    if (!release) return true;
    if (item.releases) return item.releases.includes(release);
    return release === pinned;
  }

  function matches(item, text, category, section, release, pinned) {
    if (!holds(item, release, pinned)) return false;
    if (category && item.category !== category) return false;
    if (section === "-" && item.section !== "") return false;
    if (section && section !== "-" && item.section !== section) return false;
    if (!text) return true;
    const haystack = (item.api + " " + item.paddle + " " + item.alias_of).toLowerCase();
    return text.split(/\s+/).every((word) => haystack.includes(word));
  }

  function remark(item) {
    if (item.page) {
      const prefix = item.alias_of ? item.alias_of + " 的别名，" : "";
      const span = document.createElement("span");
      span.append(prefix, link("差异对比", item.page));
      return span;
    }
    return item.reason;
  }

  function update(form) {
    const text = form.text.value.trim().toLowerCase();
    const category = form.category.value;
    const section = form.section.value;
    const release = form.release ? form.release.value : "";
    const pinned = form.release ? form.release.dataset.pinned : "";
    const body = form.results.tBodies[0];
    body.replaceChildren();
    if (!text && !category && !section && !release) {
      form.results.hidden = true;
      form.status.textContent = "";
      return;
    }
    const found = window.APIMAP_INDEX.filter((item) =>
      matches(item, text, category, section, release, pinned),
    );
    for (const item of found.slice(0, LIMIT)) {
      const row = document.createElement("tr");
      cell(row, item.api);
      cell(row, item.zh_name);
      cell(row, item.paddle);
      cell(row, item.label);
      cell(row, item.section || "-");
      cell(row, remark(item));
      body.appendChild(row);
    }
    form.results.hidden = found.length === 0;
    form.status.textContent =
      found.length === 0
        ? "没有符合条件的 API。"
        : found.length > LIMIT
          ? "找到 " + found.length + " 个 API，显示前 " + LIMIT + " 个。"
          : "找到 " + found.length + " 个 API。";
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
    if (!form.text || !window.APIMAP_INDEX) return;
    for (const control of [form.text, form.category, form.section, form.release]) {
      if (control) control.addEventListener("input", () => update(form));
    }
    update(form);
  });
})();
