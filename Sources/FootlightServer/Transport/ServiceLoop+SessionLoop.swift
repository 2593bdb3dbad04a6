/// A service loop is where the sessions of its connections run their turns.
extension ServiceLoop: SessionLoop {}
