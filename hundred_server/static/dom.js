// DOM helpers: elements are built with properties and text nodes only, so a server
// string can never become markup.

export function $(id) {
  return document.getElementById(id);
}

/** An element with properties and children (strings become text nodes). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("aria")) node.setAttribute(`aria-${k.slice(4).toLowerCase()}`, String(v));
    else if (k === "onclick") node.addEventListener("click", v);
    else node[k] = v;
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

export const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const child of children) node.append(child);
  return node;
}
