extension KioskStrings {
    /// The kiosk in German (formal address).
    public static let german = KioskStrings(
        sitePage: PageText(
            .german,
            [
                "name": "Auktionen",
                "tagline":
                    "Jede Ansicht dieser Seite lebt auf einem Swift-Server; die Seite bindet nur, was er sendet.",
                "skip": "Zum Inhalt springen",
            ]),
        listingsPage: PageText(
            .german,
            [
                "title": "Angebotene Lose", "hint": "Die Gebote aller Besucher erscheinen, sobald sie abgegeben sind.",
                "profileOf": "Profil von", "signIn": "Anmelden", "orderLabel": "Reihenfolge der Lose",
                "languageLabel": "Sprache", "headLot": "Los", "headWork": "Werk", "headBid": "Gebot",
                "headBids": "Gebote", "headTimeLeft": "Restzeit",
            ]),
        lotPage: PageText(
            .german,
            [
                "allLots": "Alle Lose", "noLongerListed": "Dieses Los wird nicht mehr angeboten.", "bids": "Gebote",
                "timeLeft": "Restzeit", "yourBid": "Ihr Gebot", "atLeast": "Mindestens",
                "waiting": "Warten auf den Auktionator…",
            ]),
        signupPage: PageText(
            .german,
            [
                "title": "Konto anlegen, um mitzubieten", "haveAccount": "Schon ein Konto?",
                "signInInstead": "Stattdessen anmelden",
            ]),
        signupForm: PageText(
            .german,
            [
                "email": "E-Mail", "password": "Passwort", "submit": "Registrieren",
                "submitting": "Registrierung läuft…",
            ]),
        signinPage: PageText(
            .german,
            [
                "title": "Anmelden", "email": "E-Mail", "password": "Passwort", "submit": "Anmelden",
                "submitting": "Anmeldung läuft…", "newHere": "Neu hier?", "createAccount": "Konto anlegen",
            ]),
        welcomePage: PageText(
            .german,
            [
                "body": "Sie können jetzt auf jedes offene Los bieten. Ihr Profil finden Sie oben in der Liste.",
                "continue": "Weiter",
            ]),
        profilePage: PageText(
            .german,
            [
                "allLots": "Alle Lose", "email": "E-Mail", "website": "Website", "trip": "Ihre Reise zur Auktion",
                "signOut": "Abmelden", "picture": "Ihr Bild", "choosePicture": "Bild wählen",
                "uploading": "Ihr Bild wird hochgeladen", "cancelUpload": "Abbrechen",
            ]),
        flightPage: PageText(
            .german,
            [
                "profile": "Profil", "title": "Ihre Reise zur Auktion",
                "unavailable": "Der Flug kann auf diesem Server nicht angezeigt werden.", "departs": "Abflug",
                "arrives": "Ankunft",
            ]),
        notFoundPage: PageText(
            .german,
            [
                "allLots": "Alle Lose", "title": "Hier ist nichts", "noPage": "Keine Seite unter",
                "hint": "Vielleicht war es ein Los, das nicht mehr angeboten wird.",
            ]),
        siteName: "Footlight Auktionen",
        lotPageTitle: { "\($0) · Footlight Auktionen" },
        orderTitle: { order in
            switch order {
            case .grid: "Raster"
            case .leastBids: "Wenigste Gebote"
            case .mostBids: "Meiste Gebote"
            case .highestBid: "Höchstes Gebot"
            case .lowestBid: "Niedrigstes Gebot"
            case .alphabetical: "Alphabetisch"
            }
        },
        lotNumber: { "Los \($0)" },
        startingBid: "Startgebot",
        currentBid: "Aktuelles Gebot",
        bidCount: { count, digits in
            switch count {
            case ..<1: "Keine Gebote"
            case 1: "1 Gebot"
            default: "\(digits) Gebote"
            }
        },
        artworkKind: { kind in
            switch kind {
            case .seascape: "Seestück"
            case .landscape: "Landschaft"
            case .portrait: "Porträt"
            case .stillLife: "Stillleben"
            case .abstract: "abstrakt"
            case .botanical: "Pflanzenstudie"
            }
        },
        artworkAlt: { title, artist, kind in "\(title) von \(artist) (\(kind))" },
        closed: "Beendet",
        timeUnits: (day: "Tg.", hour: "Std.", minute: "Min.", second: "s"),
        youLead: "Sie haben das höchste Gebot.",
        youWon: "Sie haben dieses Los ersteigert.",
        closedWithoutBids: "Ohne Gebote beendet.",
        soldFor: { "Verkauft für \($0)." },
        placeBid: "Gebot abgeben",
        placingBid: "Gebot wird abgegeben…",
        signInToBid: "Zum Bieten anmelden",
        bidAtLeast: { "Bieten Sie mindestens \($0)." },
        notAnAmount: "Geben Sie einen Betrag in Dollar ein, etwa 1.250 oder 1.250,00.",
        tooManyDecimals: "Höchstens zwei Nachkommastellen (Cent).",
        amountTooLarge: { "Höchstens \($0)." },
        bidAccepted: { "Ihr Gebot von \($0) ist das höchste." },
        outbid: { highest, yours in "Sie wurden überboten: Das höchste Gebot ist jetzt \(highest) (Ihres: \(yours))." },
        bidRefused: { "Gebot nicht abgegeben: \($0)" },
        bidError: { error, minimum in
            switch error {
            case .tooLow?: "Jemand war schneller. Sie können jetzt mindestens \(minimum ?? "mehr") bieten."
            case .lotClosed?: "Die Auktion dieses Loses ist beendet."
            case .unknownLot?: "Dieses Los wird nicht mehr angeboten."
            case .missingBidder?: "Bitte melden Sie sich erneut an."
            case .notRecorded?: "Die Auktion konnte es nicht speichern. Bitte versuchen Sie es noch einmal."
            case nil: "Bitte versuchen Sie es noch einmal."
            }
        },
        noBidsYet: "Noch keine Gebote.",
        oneBid: { "1 Gebot: \($0)." },
        bidRange: { count, first, last, shown in
            "\(count) Gebote, von \(first) bis \(last)\(shown.map { " (die letzten \($0) gezeigt)" } ?? "")."
        },
        signedOut: "Abgemeldet",
        pictureProblem: { problem in
            switch problem {
            case .tooLarge(let megabytes): "Wählen Sie ein Bild von höchstens \(megabytes) MB."
            case .notAPicture: "Wählen Sie ein PNG-, JPEG-, GIF- oder WebP-Bild."
            case .notKept: "Das Bild konnte nicht gespeichert werden. Versuchen Sie es erneut."
            }
        },
        tooManyCharacters: { maximum, count in "Höchstens \(maximum) Zeichen (bisher \(count))." },
        tooFewCharacters: { minimum, count in "Mindestens \(minimum) Zeichen (bisher \(count))." },
        notAnEmail: "Geben Sie eine E-Mail-Adresse wie name@example.com ein.",
        welcome: { "Willkommen, \($0)!" },
        signupFailed: { "Registrierung fehlgeschlagen: \($0)." },
        signinFailed: { "Anmeldung fehlgeschlagen: \($0)." },
        accountError: { error in
            switch error?.reason {
            case .taken?: "Für diese Adresse gibt es schon ein Konto"
            case .wrongCredentials?: "E-Mail oder Passwort stimmt nicht"
            case .unavailable?: "Konten sind gerade nicht erreichbar; bitte versuchen Sie es noch einmal"
            case .busy?: "Der Kiosk ist ausgelastet; bitte versuchen Sie es gleich noch einmal"
            case .full?: "Der Kiosk ist voll, leider"
            case .addressTooLong?: "Die Adresse ist zu lang"
            case .passwordTooLong?: "Das Passwort ist zu lang"
            case nil: "Bitte versuchen Sie es noch einmal"
            }
        },
        greeting: { "Willkommen an Bord, \($0)." },
        flightDuration: { hours, minutes in
            let hoursText = "\(hours) \(hours == 1 ? "Stunde" : "Stunden")"
            let minutesText = "\(minutes) \(minutes == 1 ? "Minute" : "Minuten")"
            return switch (hours, minutes) {
            case (0, _): minutesText
            case (_, 0): hoursText
            default: "\(hoursText), \(minutesText)"
            }
        },
        cities: ["Lisbon": "Lissabon", "Vienna": "Wien"],
        catalogue: [
            "Oil on canvas": "Öl auf Leinwand",
            "Acrylic on board": "Acryl auf Malpappe",
            "Oil on linen": "Öl auf Leinen",
            "Watercolour on paper": "Aquarell auf Papier",
            "Woodblock print": "Holzschnitt",
            "Oil on board": "Öl auf Malpappe",
            "Oil and sand on canvas": "Öl und Sand auf Leinwand",
            "Pastel on paper": "Pastell auf Papier",
            "Gouache on paper": "Gouache auf Papier",
            "Etching with aquatint": "Radierung mit Aquatinta",
            "Fishing boats come in under a violet sky; the lamps of the quay are just lit.":
                "Fischerboote laufen unter violettem Himmel ein; die Lampen am Kai sind eben angezündet.",
            "Layered blues scraped back to the board, from a series of nine.":
                "Geschichtete Blautöne, bis auf die Pappe zurückgeschabt, aus einer Serie von neun.",
            "The sitter holds a loupe to a pocket watch; his workshop recedes into shadow.":
                "Der Dargestellte hält eine Lupe an eine Taschenuhr; seine Werkstatt verliert sich im Schatten.",
            "Three pears and a pewter jug on a folded cloth, in the cool light of a north window.":
                "Drei Birnen und ein Zinnkrug auf einem gefalteten Tuch, im kühlen Licht eines Nordfensters.",
            "A road climbs between larches turned gold; the first snow lies on the ridge.":
                "Eine Straße steigt zwischen golden gewordenen Lärchen an; auf dem Grat liegt der erste Schnee.",
            "A ferry's lit windows cross a black bay; one of an edition of forty.":
                "Die erleuchteten Fenster einer Fähre ziehen über eine schwarze Bucht; eines von vierzig Exemplaren.",
            "Hollyhocks against a sunlit brick wall, painted in a single sitting.":
                "Stockrosen vor einer sonnigen Backsteinmauer, in einer einzigen Sitzung gemalt.",
            "Interlocking planes of ochre and umber with a single line of cadmium red.":
                "Ineinandergreifende Flächen aus Ocker und Umbra mit einer einzigen Linie Kadmiumrot.",
            "A young woman reads by a window, her face lit by the page.":
                "Eine junge Frau liest am Fenster, ihr Gesicht vom Licht der Seite erhellt.",
            "Mist lifting off channels of water; a heron stands at the edge of the reeds.":
                "Nebel steigt von den Wasserläufen auf; ein Reiher steht am Rand des Schilfs.",
            "Striped tulips leaning out of a jar of water, their stems bent by the glass.":
                "Gestreifte Tulpen neigen sich aus einem Wasserglas, ihre Stiele im Glas gebrochen.",
            "A kite hangs on the wind above a patchwork of ploughed fields.":
                "Ein Rotmilan steht im Wind über einem Flickenteppich gepflügter Felder.",
        ]
    )
}
