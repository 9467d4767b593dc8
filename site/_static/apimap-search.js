/* The site search (search.html?q=…). A query that names an API exactly (as code writes it)
   opens its page. Otherwise the page lists the APIs whose names match, best first (the exact
   name, then the last part of the name, then the Chinese name), then the pages whose text holds
   every Chinese character pair and word of the query (the index the build splits into
   _static/search/NN.json by the same hash as apimap.publish.site.search). A full name that no
   record covers is said to be so, with its status in the public-API table and a link to ask
   for it. */
"use strict";

(function () {
  const SHARDS = 64;
  const LIMIT = 50;
  const lookup = window.apimapLookup;

  function shardOf(term) {
    let value = 0x811c9dc5;
    for (let i = 0; i < term.length; i++) {
      value ^= term.charCodeAt(i);
      value = Math.imul(value, 0x01000193) >>> 0;
    }
    return (value >>> 0) % SHARDS;
  }

  function terms(text) {
    const found = new Set();
    for (const run of text.match(/[\u3400-\u9fff\uf900-\ufaff]+/g) || []) {
      for (let i = 0; i + 1 < run.length; i++) found.add(run.slice(i, i + 2));
    }
    for (const word of text.toLowerCase().match(/[a-z0-9_]+/g) || []) {
      if (word.length > 1) found.add(word);
    }
    return [...found];
  }

  function json(path) {
    return fetch(lookup.root() + path).then((answer) => (answer.ok ? answer.json() : null));
  }

  function ids(deltas) {
    let position = 0;
    return deltas.map((step) => (position += step));
  }

  /* Pages holding every term of the query, as [address, title]. */
  function fullText(query, index) {
    const wanted = terms(query);
    if (!wanted.length) return Promise.resolve([]);
    const shards = [...new Set(wanted.map(shardOf))];
    const number = (n) => String(n).padStart(2, "0");
    return Promise.all([
      json("_static/search/docs.json"),
      ...shards.map((n) => json("_static/search/" + number(n) + ".json")),
    ]).then(([docs, ...parts]) => {
      const postings = Object.assign({}, ...parts);
      let hits = null;
      for (const term of wanted) {
        const found = new Set(postings[term] ? ids(postings[term]) : []);
        hits = hits === null ? found : new Set([...hits].filter((id) => found.has(id)));
      }
      const byApi = new Map(index.rows.filter((row) => row.relation === "").map((row) => [row.api, row]));
      return [...(hits || [])].sort((a, b) => a - b).map((id) => {
        const key = docs[id];
        if (typeof key === "string") {
          const row = byApi.get(key);
          return { href: lookup.pageOf(key), title: key, note: row ? row.zh : "", api: key };
        }
        return { href: lookup.root() + key[0], title: key[1], note: "", api: null };
      });
    });
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function code(text) {
    const node = element("code", "docutils literal notranslate");
    node.appendChild(element("span", "pre", text));
    return node;
  }

  function apiItem(row) {
    const li = element("li");
    const a = element("a", "reference internal");
    a.href = row.page;
    a.appendChild(code(row.api));
    li.append(a, " " + row.zh + " · " + row.label);
    if (row.relation === "a") li.append("（" + row.record + " 的别名）");
    if (row.relation === "v") li.append("（" + row.record + " 的原位版本）");
    return li;
  }

  function pageItem(hit) {
    const li = element("li");
    const a = element("a", "reference internal");
    a.href = hit.href;
    if (hit.api) a.appendChild(code(hit.title));
    else a.textContent = hit.title;
    li.append(a);
    if (hit.note) li.append(" " + hit.note);
    return li;
  }

  function section(title, items) {
    const box = element("section", "apimap-search-section");
    box.appendChild(element("h2", "", title));
    const list = element("ul", "apimap-results");
    list.append(...items);
    box.appendChild(list);
    return box;
  }

  /* A full name that leads to no page: covered nowhere yet, or not a public name at all. */
  function uncovered(query, box, ranked) {
    const names = lookup.candidates(query);
    const name = names[names.length - 1];
    if (!name || !/\./.test(query.trim()) || ranked.some((row) => names.includes(row.api))) {
      return Promise.resolve();
    }
    return json("_static/apimap-uncovered.json").then((data) => {
      const known = names.find((item) => data && item in data.names);
      const notice = element("div", "admonition apimap-notice");
      notice.appendChild(element("p", "admonition-title", "还没有收录"));
      const versions = box.dataset.versions || "";
      const text = known
        ? known + " 是 " + versions + " 的公开 API（" + data.names[known] + "），本站还没有它的映射记录。"
        : name + " 不在 " + versions + " 的公开 API 表中：可能拼写有误、是内部 API，或属于尚未统计的命名空间。";
      notice.appendChild(element("p", "", text));
      const request = box.dataset.request;
      if (request) {
        const api = known || name;
        const p = element("p");
        const a = element("a", "reference external", "请求收录这个 API");
        a.href =
          request +
          "&title=" + encodeURIComponent("[请求收录] " + api) +
          "&api=" + encodeURIComponent(api);
        p.append(a, "（打开预填好的 issue 表单）");
        notice.appendChild(p);
      } else {
        notice.appendChild(element("p", "", "可以在项目仓库中提出 issue，请求收录它。"));
      }
      box.prepend(notice);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const box = document.getElementById("apimap-search");
    if (!box || !lookup) return;
    const query = (new URLSearchParams(window.location.search).get("q") || "").trim();
    const input = document.getElementById("apimap-search-text");
    if (input) input.value = query;
    if (!query) return;
    const status = element("p", "apimap-search-status", "正在搜索 …");
    box.appendChild(status);
    lookup.load().then((index) => {
      const item = lookup.resolve(query, index, "torch");
      if (item) {
        window.location.replace(item.page);
        return;
      }
      const ranked = lookup.rank(query, index);
      const shown = ranked.slice(0, LIMIT);
      if (shown.length) box.appendChild(section("API", shown.map(apiItem)));
      Promise.all([fullText(query, index), uncovered(query, box, ranked)]).then(([hits]) => {
        const listed = new Set(shown.map((row) => row.record));
        const pages = hits.filter((hit) => !hit.api || !listed.has(hit.api)).slice(0, LIMIT);
        if (pages.length) box.appendChild(section("内容中出现的页面", pages.map(pageItem)));
        status.textContent =
          ranked.length || pages.length
            ? "找到 " + ranked.length + " 个 API，另有 " + pages.length + " 个页面的内容包含「" + query + "」。"
            : "没有找到与「" + query + "」有关的 API 或页面。";
        box.dataset.done = "1";
      });
    });
  });
})();
