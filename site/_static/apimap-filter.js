/* The table filter (tables page, and the reverse lookup with data-direction="paddle"):
   searches window.APIMAP_INDEX by name, category, section and the paddle
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

  function matches(item, form, text) {
    const release = form.release ? form.release.value : "";
    const pinned = form.release ? form.release.dataset.pinned : "";
    if (!holds(item, release, pinned)) return false;
    const category = form.category ? form.category.value : "";
    const section = form.section ? form.section.value : "";
    if (category && item.category !== category) return false;
    if (section === "-" && item.section !== "") return false;
    if (section && section !== "-" && item.section !== section) return false;
    if (form.reverse && (item.category === "missing" || item.category === "composite")) return false;
    if (!text) return true;
    const haystack = (
      form.reverse ? item.paddle : item.api + " " + item.paddle + " " + item.alias_of + " " + item.zh_name
    ).toLowerCase();
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

  function active(form, text) {
    return Boolean(
      text ||
        (form.category && form.category.value) ||
        (form.section && form.section.value) ||
        (form.release && form.release.value),
    );
  }

  function update(form) {
    const text = form.text.value.trim().toLowerCase();
    const body = form.results.tBodies[0];
    body.replaceChildren();
    if (!active(form, text)) {
      form.results.hidden = true;
      form.status.textContent = "";
      return;
    }
    const found = window.APIMAP_INDEX.filter((item) => matches(item, form, text));
    for (const item of found.slice(0, LIMIT)) {
      const row = document.createElement("tr");
      if (form.reverse) {
        cell(row, item.paddle);
        cell(row, item.api);
        cell(row, item.zh_name);
        cell(row, item.label);
      } else {
        cell(row, item.api);
        cell(row, item.zh_name);
        cell(row, item.paddle);
        cell(row, item.label);
        cell(row, item.section || "-");
      }
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

  function open(form) {
    if (!window.apimapLookup) return false;
    const direction = form.reverse ? "paddle" : "torch";
    const item = window.apimapLookup.resolve(form.text.value, window.APIMAP_INDEX, direction);
    if (!item) return false;
    window.location.assign(item.page);
    return true;
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
    form.reverse = form.text.dataset.direction === "paddle";
    for (const control of [form.text, form.category, form.section, form.release]) {
      if (control) control.addEventListener("input", () => update(form));
    }
    form.text.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && open(form)) event.preventDefault();
    });
    form.text.addEventListener("paste", () => window.setTimeout(() => open(form), 0));
    update(form);
  });
})();
