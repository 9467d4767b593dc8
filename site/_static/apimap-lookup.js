/* Direct lookup: a full API name, as written in code (torch.nn.functional.interpolate,
   F.interpolate, nn.Conv2d, x.permute, paddle.nn.Conv2D), resolved to its page through
   window.APIMAP_INDEX. The table filter uses it on Enter and on paste; on the search page a
   query that names an API opens its page instead of listing search results. */
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
  const ROOTS = ["torch.", "torchvision.", "paddle."];

  function candidates(query) {
    const name = query.trim().replace(/\s*\(.*$/s, "").replace(/\s+/g, "");
    if (!/^[A-Za-z_][\w.]*$/.test(name)) return [];
    if (ROOTS.some((root) => name.startsWith(root)) || name === "torch") return [name];
    for (const [prefix, full] of PREFIXES) {
      if (name.startsWith(prefix)) return [full + name.slice(prefix.length)];
    }
    const parts = name.split(".");
    if (parts.length === 2) return ["torch.Tensor." + parts[1], "torch." + name];
    return ["torch." + name];
  }

  function resolve(query, index, direction) {
    const key = direction === "paddle" ? "paddle" : "api";
    for (const name of candidates(query)) {
      const exact = index.find((item) => item[key] === name && item.page);
      if (exact) return exact;
      const lower = name.toLowerCase();
      const loose = index.filter((item) => item[key].toLowerCase() === lower && item.page);
      if (loose.length === 1) return loose[0];
    }
    if (direction !== "paddle") return resolve(query, index, "paddle");
    return null;
  }

  window.apimapLookup = { resolve: resolve };

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.APIMAP_INDEX || !/search\.html$/.test(window.location.pathname)) return;
    const query = new URLSearchParams(window.location.search).get("q");
    if (!query) return;
    const item = resolve(query, window.APIMAP_INDEX, "torch");
    if (item) window.location.replace(item.page);
  });
})();
