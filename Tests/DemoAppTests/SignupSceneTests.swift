import DemoApp
import Footlight
import FootlightTesting
import Testing

/// The sign-up form driven in process: validation as you type, one submit at a time,
/// and the outcome.
@Suite struct SignupSceneTests {
    @Test("Sign-up: errors as you type, submit in progress, once at a time, then the outcome")
    func signup() throws {
        let tester = SceneTester({ context, _ in
            context.show(
                SignupScene(
                    accounts: SessionAccounts(
                        directory: AccountDirectory(seeded: [], cost: .minimal), clock: context.environment.clock,
                        latency: .seconds(1))
                ))
        })
        let form = try #require(tester.component("form", in: "signup"))
        #expect(tester.document(form)?["canSubmit"] == false)
        tester.send("email", to: form, value: "ada")
        tester.expect(form, ["email": "ada", "emailError": "Enter an email address like name@example.com."])
        tester.send("email", to: form, value: "ada@example.com")
        tester.expect(form, ["email": "ada@example.com", "emailError": nil])
        tester.send("password", to: form, value: "short")
        tester.expect(form, ["password": "short", "passwordError": "Use at least 8 characters (5 so far)."])
        tester.send("password", to: form, value: "long enough")
        tester.expect(form, ["password": "long enough", "passwordError": nil, "canSubmit": true])
        tester.send("submit", to: form, value: ["email": "ada@example.com"])
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.send("submit", to: form)  // ignored while the first runs
        tester.advance(by: .milliseconds(999))
        tester.advance(by: .milliseconds(1))
        tester.expect(form, ["submitting": false, "canSubmit": true, "message": "Welcome, Ada!"])
        tester.finish()
    }

    @Test("Sign-up failure shows the service's reason as an error, until a field is edited")
    func signupFailure() throws {
        let tester = SceneTester({ context, _ in
            context.show(
                SignupScene(
                    accounts: SessionAccounts(
                        directory: AccountDirectory(cost: .minimal), clock: context.environment.clock)))
        })
        let form = try #require(tester.component("form", in: "signup"))
        // Copied from a web page: a no-break space after it, the domain in capitals.
        tester.send("email", to: form, value: "taken@EXAMPLE.com\u{00A0}")
        tester.expect(form, ["email": "taken@EXAMPLE.com\u{00A0}"])
        tester.send("password", to: form, value: "password123")
        tester.expect(form, ["password": "password123", "canSubmit": true])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.advance(by: .seconds(1))
        tester.expect(
            form,
            [
                "submitting": false, "canSubmit": true, "failed": true,
                "message": "Sign-up failed: that address already has an account.",
            ])
        tester.send("password", to: form, value: "password1234")
        tester.expect(form, ["password": "password1234", "failed": false, "message": nil])
        tester.finish()
    }
}
