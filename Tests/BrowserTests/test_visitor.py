"""The visitor cookie in a real browser: the page names the visitor with a signed cookie that
scripts cannot read, the browser sends it back on the WebSocket, and every tab and reload of
that browser is the same visitor (a fresh browser context is another)."""


def _visitor_cookies(context):
    return [cookie for cookie in context.cookies() if cookie["name"] == "footlight_visitor"]


def test_the_page_names_one_visitor_per_browser(open_app):
    app = open_app()
    context = app.page.context
    [cookie] = _visitor_cookies(context)
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["path"] == "/"
    assert not cookie["secure"], "plain http: a Secure cookie would never come back"
    assert "footlight_visitor" not in app.page.evaluate("document.cookie"), "scripts cannot read it"

    # A reload and a second tab keep the visitor; the server sets no new cookie for them.
    set_cookies = []

    def record(response):
        if response.request.is_navigation_request():
            set_cookies.append(response.headers.get("set-cookie"))

    context.on("response", record)
    app.page.reload()
    app.wait_joined()
    second = context.new_page()
    second.goto(app.base + "/")
    second.wait_for_function("() => window.footlight && window.footlight.state().joined")
    assert set_cookies == [None, None]
    assert _visitor_cookies(context) == [cookie]

    # Another browser (context) is another visitor.
    other = open_app()
    [other_cookie] = _visitor_cookies(other.page.context)
    assert other_cookie["value"] != cookie["value"]
