import type { BrowserContext } from 'playwright-core';

/**
 * Stand-ins for the hCaptcha and Cloudflare Turnstile widget scripts, served in place of the real ones (routed by
 * URL, so the Content-Security-Policy sees the provider's own origin). Each renders an 'I am human' button that
 * solves the widget with the token in `window.__captchaToken` (default `pass-browser-N`, which the local verify
 * server accepts), implementing the parts of each provider's JavaScript API that the official React widgets call.
 */
const HCAPTCHA_SCRIPT = `
(function () {
  var widgets = {}; var next = 0; var solved = 0;
  function token() { return window.__captchaToken || ('pass-browser-' + (++solved)); }
  window.hcaptcha = {
    render: function (container, params) {
      var el = typeof container === 'string' ? document.getElementById(container) : container;
      var id = String(next++);
      var button = document.createElement('button');
      button.type = 'button'; button.textContent = 'I am human'; button.setAttribute('data-testid', 'captcha-solve');
      button.onclick = function () { widgets[id].response = token(); params.callback && params.callback(widgets[id].response); };
      el.appendChild(button);
      widgets[id] = { el: el, params: params, response: '' };
      return id;
    },
    reset: function (id) { if (widgets[id]) widgets[id].response = ''; },
    remove: function (id) { if (widgets[id]) { widgets[id].el.innerHTML = ''; delete widgets[id]; } },
    getResponse: function (id) { return widgets[id] ? widgets[id].response : ''; },
    getRespKey: function () { return 'stand-in-key'; },
    execute: function () {}, setData: function () {}, close: function () {},
  };
  var onload = new URL(document.currentScript.src).searchParams.get('onload');
  if (onload && typeof window[onload] === 'function') window[onload]();
})();`;

const TURNSTILE_SCRIPT = `
(function () {
  var widgets = {}; var next = 0; var solved = 0;
  function token() { return window.__captchaToken || ('pass-browser-' + (++solved)); }
  window.turnstile = {
    render: function (container, params) {
      var el = typeof container === 'string' ? document.querySelector(container) : container;
      var id = 'cf-' + (next++);
      var button = document.createElement('button');
      button.type = 'button'; button.textContent = 'I am human'; button.setAttribute('data-testid', 'captcha-solve');
      button.onclick = function () { widgets[id].response = token(); params.callback && params.callback(widgets[id].response); };
      el.appendChild(button);
      widgets[id] = { el: el, params: params, response: '' };
      return id;
    },
    reset: function (id) { if (widgets[id]) widgets[id].response = ''; },
    remove: function (id) { if (widgets[id]) { widgets[id].el.innerHTML = ''; delete widgets[id]; } },
    getResponse: function (id) { return widgets[id] ? widgets[id].response : undefined; },
    isExpired: function () { return false; },
    execute: function () {}, ready: function (fn) { fn(); },
  };
  var onload = new URL(document.currentScript.src).searchParams.get('onload');
  if (onload && typeof window[onload] === 'function') window[onload]();
})();`;

export async function routeCaptchaWidget(context: BrowserContext, provider: 'hcaptcha' | 'cloudflare-turnstile') {
  const [pattern, body] =
    provider === 'hcaptcha'
      ? ['https://js.hcaptcha.com/1/api.js**', HCAPTCHA_SCRIPT]
      : ['https://challenges.cloudflare.com/turnstile/v0/api.js**', TURNSTILE_SCRIPT];
  await context.route(pattern, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      // The widgets load their script with crossorigin="anonymous".
      headers: { 'access-control-allow-origin': '*' },
      body,
    }),
  );
}
