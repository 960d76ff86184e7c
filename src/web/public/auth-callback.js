// /auth-callback.html: Google or the OpenID provider sends the browser back to the server, which sets the session and
// lands here with ?next=<path> (and ?error=<code> when sign-in failed). Forward into the app, to our own paths only.
(function () {
  var origin = window.location.origin;
  // A path of this app as the browser itself reads it, or null. Its raw characters prove nothing: the browser drops
  // tabs and newlines and reads '\' as '/', so '/\t/evil.example' is '//evil.example', another site.
  // src/web/lib/redirect-state.ts sameOriginPath is the same check for the app; tests/api/safe-redirect.test.ts
  // runs both against the same cases.
  function sameOriginPath(target) {
    if (typeof target !== 'string' || target.charAt(0) !== '/') return null;
    try {
      var url = new URL(target, origin);
      return url.origin === origin ? url.pathname + url.search + url.hash : null;
    } catch {
      return null;
    }
  }
  var params = new URLSearchParams(window.location.search);
  var next = sameOriginPath(params.get('next') || '/') || '/';
  var error = params.get('error');
  if (error) {
    var target = new URL(next === '/' ? '/login' : next, origin);
    target.searchParams.set('oauth_error', error);
    var provider = params.get('provider');
    if (provider) target.searchParams.set('provider', provider);
    // A sign-in refused by the account's back-off says how many seconds to wait.
    var wait = params.get('error_description');
    if (error === 'too_many_attempts' && wait && /^[0-9]{1,6}$/.test(wait)) target.searchParams.set('wait', wait);
    next = target.pathname + target.search;
  }
  window.location.replace(next);
})();
