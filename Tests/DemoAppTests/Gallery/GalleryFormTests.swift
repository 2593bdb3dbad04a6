import Footlight
import FootlightTesting
import Gallery
import Testing

/// The gallery's form: its Director as one value over plain publishers, then the scene
/// in process against the pretend service's latency.
@Suite struct GalleryFormTests {
    typealias Form = SignupFormDirector.Form

    @Test("The form value: problems per field, a submit only when both are good, the answer until an edit")
    func director() {
        let (email, password) = (PassthroughSubject<String, Never>(), PassthroughSubject<String, Never>())
        let (submit, answers) = (PassthroughSubject<Void, Never>(), PassthroughSubject<String, any Error>())
        var asked: [SignupFormDirector.Entry] = []
        let director = SignupFormDirector(
            email: email.eraseToAnyPublisher(), password: password.eraseToAnyPublisher(),
            submit: submit.eraseToAnyPublisher(),
            signUp: { entry in
                asked.append(entry)
                return answers.eraseToAnyPublisher()
            })
        var seen: Form?
        let watching = director.form.sink { seen = $0 }
        defer { watching.cancel() }
        #expect(seen?.canSubmit == false && seen?.emailError == nil && seen?.message == nil)
        email.send("ada@")
        #expect(seen?.emailError == "Enter an email address like name@example.com.")
        email.send("ada@example.com")
        password.send("abc")
        #expect(seen?.emailError == nil && seen?.passwordError == "Use at least 8 characters (3 so far).")
        submit.send()
        #expect(asked.isEmpty, "an invalid form is not sent")
        password.send("analytical")
        #expect(seen?.canSubmit == true)
        submit.send()
        submit.send()
        #expect(asked.count == 1 && seen?.submitting == true && seen?.canSubmit == false)
        answers.send(completion: .failure(SignupFormDirector.Refusal(reason: "the service is down")))
        #expect(seen?.failed == true && seen?.message == "Sign-up failed: the service is down.")
        password.send("analytical engine")
        #expect(seen?.failed == false && seen?.message == nil && seen?.submitting == false)
    }

    @Test("In process: the pretend service welcomes after its latency, and refuses the taken address")
    func scene() throws {
        let tester = SceneTester(SignupCardScene())
        let form = try #require(tester.component("form", in: "signup"))
        tester.send("password", to: form, value: "cobol1959")
        tester.expect(form, ["password": "cobol1959"])
        tester.send("email", to: form, value: "grace.hopper@example.com")
        tester.expect(form, ["email": "grace.hopper@example.com", "canSubmit": true])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(400))
        tester.expect(form, ["submitting": false, "canSubmit": true, "message": "Welcome, Grace Hopper!"])
        tester.send("email", to: form, value: " Taken@Example.com")
        tester.expect(form, ["email": " Taken@Example.com", "message": nil])
        tester.send("submit", to: form)
        tester.expect(form, ["submitting": true, "canSubmit": false])
        tester.advance(by: .milliseconds(400))
        let refused = "Sign-up failed: that address already has an account."
        tester.expect(form, ["submitting": false, "canSubmit": true, "failed": true, "message": .string(refused)])
        tester.finish()
    }
}
