"""The sign-up form: debounced validation, the submit button, one submission at a time."""

import re

from playwright.sync_api import expect

from conftest import FORM

EMAIL_ERROR = "Enter an email address like name@example.com."

# Records, in window.__seen, each time the progress text or the message changes its visibility
# or text: the page's history of the submission, whatever the timing of the waits.
OBSERVE_SUBMISSION = """(form) => {
  const progress = form.querySelector('.progress');
  const message = form.querySelector('.message');
  window.__seen = { progressShown: 0, messages: [], submits: 0 };
  let progressVisible = !progress.hidden;
  new MutationObserver(() => {
    if (!progress.hidden && !progressVisible) window.__seen.progressShown++;
    progressVisible = !progress.hidden;
    const text = message.hidden ? '' : message.textContent;
    if (text && text !== window.__seen.messages.at(-1)) window.__seen.messages.push(text);
  }).observe(form, { attributes: true, childList: true, characterData: true, subtree: true });
  form.addEventListener('submit', () => window.__seen.submits++, true);
}"""


def form_parts(app):
    stage = app.stage("signup")
    return (
        stage,
        stage.get_by_label("Email"),
        stage.get_by_label("Password"),
        stage.locator("#signup-email-error"),
        stage.locator("#signup-password-error"),
        stage.get_by_role("button", name="Sign up"),
    )


def test_validation_appears_after_the_debounce_and_clears(open_app):
    app = open_app()
    stage, email, password, email_error, password_error, submit = form_parts(app)
    expect(email_error).to_be_hidden()
    expect(password_error).to_be_hidden()
    expect(submit).to_be_disabled()
    doc = app.state()["documents"][FORM]
    assert doc["canSubmit"] is False and doc["emailError"] is None and doc["passwordError"] is None

    # An input event is held by the page for the debounce: nothing is sent in the same task.
    held = email.evaluate("""(input) => {
      const before = window.footlight.state().unacknowledged;
      input.value = 'x';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const after = window.footlight.state();
      return { before, after: after.unacknowledged, email: after.documents['signup-form-c1'].email,
               errorHidden: document.getElementById('signup-email-error').hidden };
    }""")
    assert held == {"before": 0, "after": 0, "email": "", "errorHidden": True}, held

    email.fill("not-an-email")
    expect(email_error).to_have_text(EMAIL_ERROR)
    expect(email_error).to_be_visible()
    expect(email).to_have_attribute("aria-invalid", "true")  # a state; the message is described by
    assert email.get_attribute("aria-describedby") == "signup-email-error"
    expect(stage.locator(".field").first).to_have_class(re.compile(r"\binvalid\b"))
    app.wait_for("(s, e) => s.documents['signup-form-c1'].emailError === e && s.documents['signup-form-c1'].email === 'not-an-email'", EMAIL_ERROR)
    expect(submit).to_be_disabled()

    email.fill("alice@example.com")
    expect(email_error).to_be_hidden()
    expect(email).not_to_have_attribute("aria-invalid", re.compile(".*"))
    expect(stage.locator(".field").first).not_to_have_class(re.compile(r"\binvalid\b"))
    app.wait_for("(s) => s.documents['signup-form-c1'].emailError === null && s.documents['signup-form-c1'].email === 'alice@example.com'")
    expect(submit).to_be_disabled()  # the password is still empty

    password.fill("short")
    expect(password_error).to_have_text("Use at least 8 characters (5 so far).")
    expect(password_error).to_be_visible()
    expect(submit).to_be_disabled()
    app.screenshot("signup-invalid")

    password.press_sequentially("er!!")  # "shorter!!": 9 characters
    expect(password_error).to_be_hidden()  # at once: typed past (typed-past.js); then by the server
    expect(submit).to_be_enabled()
    app.wait_for("(s) => s.documents['signup-form-c1'].password === 'shorter!!'")
    app.wait_settled()
    doc = app.state()["documents"][FORM]
    assert doc["passwordError"] is None and doc["canSubmit"] is True and doc["password"] == "shorter!!"

    # Breaking the email again disables the button again.
    email.fill("alice@")
    expect(email_error).to_have_text(EMAIL_ERROR)
    expect(submit).to_be_disabled()


def test_an_error_about_text_typed_past_hides_at_once(open_app):
    """The email's error is about the text the server checked: a key typed after it hides the
    error at once (not after the debounce and a round trip), and the server's next answer shows
    the error again if the text is still wrong."""
    app = open_app()
    stage, email, _, email_error, _, _ = form_parts(app)
    email.press_sequentially("ada@ex", delay=20)
    expect(email_error).to_have_text(EMAIL_ERROR)
    expect(email_error).to_be_visible()
    shown = email.evaluate("""(input) => {
      input.value += 'a';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const error = document.getElementById('signup-email-error');
      return { display: getComputedStyle(error).display,
               border: getComputedStyle(input).borderColor === getComputedStyle(error).color };
    }""")
    assert shown == {"display": "none", "border": False}, shown
    expect(email_error).to_be_visible()  # "ada@exa" is still no address: said again, about it
    app.wait_for("(s) => s.documents['signup-form-c1'].email === 'ada@exa'")
    email.press_sequentially("mple.com", delay=20)
    expect(email_error).to_be_hidden()
    app.wait_for("(s) => s.documents['signup-form-c1'].emailError === null")
    expect(email_error).to_be_hidden()


def test_submit_shows_progress_then_welcome(open_app):
    app = open_app()
    stage, email, password, email_error, password_error, submit = form_parts(app)
    stage.locator("form").evaluate(OBSERVE_SUBMISSION)
    email.fill("alice@example.com")
    password.fill("correct horse")
    expect(submit).to_be_enabled()
    progress = stage.locator(".progress")
    message = stage.locator(".message")
    expect(progress).to_be_hidden()
    expect(message).to_be_hidden()

    submit.click()
    # The demo account service answers after 400 ms: the progress state is visible meanwhile.
    expect(progress).to_be_visible()
    expect(progress).to_have_text("Signing up…")
    expect(submit).to_be_disabled()
    expect(message).to_have_text("Welcome, Alice!")
    expect(message).to_be_visible()
    expect(progress).to_be_hidden()
    expect(submit).to_be_enabled()
    app.wait_settled()
    doc = app.state()["documents"][FORM]
    assert doc["message"] == "Welcome, Alice!" and doc["submitting"] is False
    seen = app.page.evaluate("() => window.__seen")
    assert seen == {"progressShown": 1, "messages": ["Welcome, Alice!"], "submits": 1}, seen


def test_taken_address_fails(open_app):
    app = open_app()
    stage, email, password, *_ , submit = form_parts(app)
    email.fill("taken@example.com")
    password.fill("correct horse")
    expect(submit).to_be_enabled()
    submit.click()
    expect(stage.locator(".message")).to_have_text("Sign-up failed: that address already has an account.")
    expect(stage.locator(".message")).to_have_class(re.compile(r"\berror\b"))
    expect(stage.locator(".progress")).to_be_hidden()
    expect(submit).to_be_enabled()


def test_double_submit_runs_once(open_app):
    app = open_app()
    stage, email, password, *_ , submit = form_parts(app)
    stage.locator("form").evaluate(OBSERVE_SUBMISSION)
    email.fill("bob@example.com")
    password.fill("correct horse")
    expect(submit).to_be_enabled()
    app.wait_settled()

    # Two clicks in one task: the button cannot have been disabled between them, so the page
    # really sends two submit events.
    sent = submit.evaluate("(button) => { button.click(); button.click(); return window.__seen.submits; }")
    assert sent == 2
    expect(stage.locator(".message")).to_have_text("Welcome, Bob!")
    expect(stage.locator(".progress")).to_be_hidden()
    app.wait_settled()  # both submit events consumed

    # A barrier: an event sent now is consumed after anything the second submit could have
    # started, so a second run would show by the time its patch arrives.
    app.page.evaluate("() => window.footlight.send('counter', 'increment')")
    expect(app.stage("counter").locator("p.count")).to_have_text("Count: 1")
    app.wait_settled()
    expect(stage.locator(".progress")).to_be_hidden()
    seen = app.page.evaluate("() => window.__seen")
    assert seen == {"progressShown": 1, "messages": ["Welcome, Bob!"], "submits": 2}, seen
    doc = app.state()["documents"][FORM]
    assert doc["message"] == "Welcome, Bob!" and doc["submitting"] is False
    assert app.errors == []  # no server error refused either event
