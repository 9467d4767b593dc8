/* Every page: copy buttons on code blocks, and rows of the mapping tables that open on tap.
   A rewrite example holds both sides under the fixed marker lines; it gets one button per side,
   each copying that side without its marker. */
"use strict";

(function () {
  const MARKERS = { torch: "# PyTorch 写法", paddle: "# Paddle 写法" };

  function sides(text) {
    const lines = text.replace(/\n$/, "").split("\n");
    const torch = lines.indexOf(MARKERS.torch);
    const paddle = lines.indexOf(MARKERS.paddle);
    if (torch !== 0 || paddle < 0) return null;
    const trim = (part) => part.join("\n").replace(/^\n+|\n+$/g, "");
    return { torch: trim(lines.slice(1, paddle)), paddle: trim(lines.slice(paddle + 1)) };
  }

  function fallbackCopy(text) {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error("copy failed"));
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(() => fallbackCopy(text));
    }
    return fallbackCopy(text);
  }

  function button(label, text) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = "apimap-copy-button";
    node.textContent = label;
    node.addEventListener("click", () => {
      copy(text).then(
        () => flash(node, label, "已复制"),
        () => flash(node, label, "复制失败"),
      );
    });
    return node;
  }

  function flash(node, label, message) {
    node.textContent = message;
    window.setTimeout(() => (node.textContent = label), 1500);
  }

  function copyButtons() {
    for (const block of document.querySelectorAll("article div.highlight")) {
      const pre = block.querySelector("pre");
      if (!pre) continue;
      const text = pre.textContent;
      const bar = document.createElement("div");
      bar.className = "apimap-copy";
      const parts = sides(text);
      if (parts) {
        bar.append(button("复制 PyTorch 代码", parts.torch), button("复制 Paddle 代码", parts.paddle));
      } else {
        bar.append(button("复制", text.replace(/\n$/, "")));
      }
      // above the whole block: furo lays the block's wrapper out as a row
      const wrapper = block.closest('div[class*="highlight-"]') || block;
      wrapper.parentNode.insertBefore(bar, wrapper);
    }
  }

  /* On a phone the mapping tables show the torch name, the paddle name and the category; a tap
     on the row (not on a link) shows the rest. */
  function openRows() {
    document.addEventListener("click", (event) => {
      const row = event.target.closest("table.apimap-mapping tbody tr");
      if (!row || event.target.closest("a")) return;
      row.classList.toggle("apimap-open");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    copyButtons();
    openRows();
  });
})();
