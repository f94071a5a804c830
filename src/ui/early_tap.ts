// A plan tap that comes before the bootstrap runs (on a slow phone the page is readable seconds before its
// scripts are): this inline handler holds it instead of letting the link leave for the checkout without a
// lead. It marks the button pressed and keeps it for the bootstrap (src/bundles/lead.ts), which opens the lead
// dialog for it as soon as it runs. If no bootstrap comes within EARLY_TAP_WAIT_MS (a script that failed to
// load), the link is followed after all: /go/checkout still counts the click and carries the visit's origin.
// Once the bootstrap has set `data-lead-buttons`, it steps aside. It runs at the end of the body, in the
// loader's script: a script in the head made the parser stop there and lay the page out twice on its way.

/** Where the held button waits for the bootstrap (a property of the window). */
export const EARLY_TAP_KEY = "__leadTap";
export const EARLY_TAP_WAIT_MS = 10_000;

/** The inline script (a few hundred bytes; the page's CSP allows it by its hash). */
export const EARLY_TAP_SCRIPT = `(function(d,w){d.addEventListener("click",function(e){` +
  `var a=e.target instanceof Element&&e.target.closest("a[data-lead]");` +
  `if(!a||d.documentElement.dataset.leadButtons)return;e.preventDefault();` +
  `a.setAttribute("aria-busy","true");w.${EARLY_TAP_KEY}=a;` +
  `setTimeout(function(){if(w.${EARLY_TAP_KEY}===a&&!d.documentElement.dataset.leadButtons){` +
  `w.${EARLY_TAP_KEY}=void 0;location.assign(a.href)}},${EARLY_TAP_WAIT_MS})},true)})(document,window)`;
