/* The explorer page's script (served from /explorer/assets, no inline code; see ../page.ts).
 * Asks the gateway who is signed in (/explorer/session: the access token held in the encrypted,
 * HttpOnly session cookie), shows it with Sign in / Sign out, and renders GraphiQL with a fetcher
 * that sends `Authorization: Bearer <token>` to /graphql. The token stays in memory: never in a
 * URL, never in storage. */
/* global React, ReactDOM, GraphiQL, document, window, fetch */
(function () {
  'use strict';
  var HEADERS = { 'x-fleetgraph-explorer': '1' };
  var session = { signedIn: false };

  var loading = null;

  /** The session from the gateway; concurrent callers share one request (one refresh at most). */
  function loadSession() {
    if (loading) return loading;
    loading = fetch('/explorer/session', { headers: HEADERS, credentials: 'same-origin', cache: 'no-store' })
      .then(function (response) {
        return response.ok ? response.json() : { signedIn: false };
      })
      .catch(function () {
        return { signedIn: false };
      })
      .then(function (loaded) {
        session = loaded;
        loading = null;
        showUser();
        return session;
      });
    return loading;
  }

  /** The current access token, renewed through the gateway shortly before it expires. */
  function accessToken() {
    if (!session.signedIn) return Promise.resolve(undefined);
    if (session.expiresAt * 1000 - Date.now() > 30000) return Promise.resolve(session.accessToken);
    return loadSession().then(function () {
      return session.signedIn ? session.accessToken : undefined;
    });
  }

  function fetcher(params, options) {
    return accessToken().then(function (token) {
      var headers = {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
      };
      if (token) headers.authorization = 'Bearer ' + token;
      var extra = (options && options.headers) || {};
      Object.keys(extra).forEach(function (name) {
        headers[name.toLowerCase()] = extra[name];
      });
      return fetch('/graphql', {
        method: 'POST',
        headers: headers,
        body: JSON.stringify(params),
        credentials: 'omit',
      }).then(function (response) {
        return response.json();
      });
    });
  }

  function showUser() {
    var user = document.getElementById('fg-user');
    var signIn = document.getElementById('fg-sign-in');
    var signOut = document.getElementById('fg-sign-out');
    if (session.signedIn) {
      var name = session.user.fullName
        ? session.user.fullName + ' (' + session.user.email + ')'
        : session.user.email;
      user.textContent = 'Signed in as ' + name;
    } else {
      user.textContent = 'Not signed in: sign in to run queries';
    }
    signIn.hidden = !!session.signedIn;
    signOut.hidden = !session.signedIn;
  }

  document.getElementById('fg-sign-out').addEventListener('click', function () {
    fetch('/explorer/logout', { method: 'POST', headers: HEADERS, credentials: 'same-origin' }).then(
      function () {
        window.location.assign('/explorer');
      },
    );
  });

  loadSession().then(function () {
    var root = ReactDOM.createRoot(document.getElementById('graphiql'));
    root.render(
      React.createElement(GraphiQL, {
        fetcher: fetcher,
        defaultQuery:
          '# Sign in, then run this query (Ctrl-Enter)\n{\n  account {\n    email\n    fullName\n  }\n}\n',
      }),
    );
  });
})();
