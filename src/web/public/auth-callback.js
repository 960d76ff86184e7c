// /auth-callback.html: Google or the OpenID provider sends the browser back to the server, which sets the session and
// lands here with ?next=<path> (and ?error=<code> when sign-in failed). Forward into the app, to our own paths only.
(function () {
  var params = new URLSearchParams(window.location.search);
  var next = params.get('next') || '/';
  if (next.charAt(0) !== '/' || next.charAt(1) === '/' || next.charAt(1) === '\\') next = '/';
  var error = params.get('error');
  if (error) {
    var target = new URL(next === '/' ? '/login' : next, window.location.origin);
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
