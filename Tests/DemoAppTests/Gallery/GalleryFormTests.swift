import Footlight
import FootlightTesting
import Gallery
import Testing

/// The gallery's form driven in process: problems as you type, one submit at a time,
/// the pretend service's answer after its latency, a failure cleared by the next edit.
@Suite struct GalleryFormTests {
    @Test("Errors as you type, then a submit in progress that runs once and welcomes")
    func signUp() throws {
        let tester = SceneTester(SignupCardScene())
        let form = try #require(tester.component("form", in: "signup"))
        #expect(tester.document(form)?["canSubmit"] == false)
        tester.send("email", to: form, value: "grace")
        tester.expect(form, ["email": "grace", "emailError": "Enter an email address like name@example.com."])
        tester.send("email", to: form, value: "grace.hopper@example.com")
        tester.expect(form, ["email": "grace.hopper@example.com", "emailError": nil])
        tester.send("password", to: form, value: "cobol")
        tester.expect(form, ["password": "cobol", "passwordError": "Use at least 8 characters (5 so far)."])
        tester.send("password", to: form, value: "cobol1959")
        tester.expect(form, ["password": "cobol1959", "passwordError": nil, "canSubmit": true])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.send("submit", to: form)  // ignored while the first runs
        tester.advance(by: .milliseconds(399))
        tester.advance(by: .milliseconds(1))
        tester.expect(form, ["submitting": false, "canSubmit": true, "message": "Welcome, Grace Hopper!"])
        tester.finish()
    }

    @Test("The taken address fails with the reason, until a field is edited")
    func taken() throws {
        let tester = SceneTester(SignupCardScene())
        let form = try #require(tester.component("form", in: "signup"))
        tester.send("email", to: form, value: " Taken@Example.com")
        tester.expect(form, ["email": " Taken@Example.com"])
        tester.send("password", to: form, value: "password123")
        tester.expect(form, ["password": "password123", "canSubmit": true])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(400))
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
