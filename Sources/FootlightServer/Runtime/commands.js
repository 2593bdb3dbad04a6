/*
 * Footlight browser runtime: client commands (ClientCommand in Swift; Bindings.md, "Client
 * commands"), sent by the server in a `run` message or declared on an event to run with no round
 * trip: focus, scroll, classes and attributes of an element of the stage (`at` selects inside the
 * stage's element), the document's title, the clipboard, and a message pushed to a hook.
 * Needs constants.js, hooks.js and stages.js; in the page its exports are the global
 * FootlightCommands.
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory(require('./constants.js'), require('./hooks.js'), require('./stages.js'));
  else root.FootlightCommands = factory(root.FootlightConstants, root.FootlightHooks, root.FootlightStages);
})(this, (K, hooks, stages) => {
  'use strict';

  // The commands on an element of the stage.
  const ON_ELEMENT = {
    focus: (el) => el.focus(),
    scroll: (el) => el.scrollIntoView({ block: 'nearest' }),
    'add-class': (el, command) => el.classList.add(command[K.CLASS]),
    'remove-class': (el, command) => el.classList.remove(command[K.CLASS]),
    'toggle-class': (el, command) => el.classList.toggle(command[K.CLASS]),
    'set-attr': (el, command) => el.setAttribute(command[K.ATTR], command[K.VALUES]?.[0] ?? ''),
    'toggle-attr': (el, command) => {
      const [first = '', second = ''] = command[K.VALUES] || [];
      el.setAttribute(command[K.ATTR], el.getAttribute(command[K.ATTR]) === first ? second : first);
    },
  };

  /**
   * Runs `commands` for stage `st`. A title set by a stage goes back to what it was when the stage
   * goes (stages.js); a command that finds no element, or that the page does not know, is reported.
   */
  function run(st, commands) {
    const { report } = stages;
    for (const command of commands) {
      const what = command[K.DO];
      if (what === 'title') {
        st.title ??= document.title;
        document.title = command[K.TEXT];
      } else if (what === 'copy') {
        const clipboard = self.navigator?.clipboard;
        if (clipboard) clipboard.writeText(command[K.TEXT]).catch((error) => console.warn(`footlight: copy refused: ${error.message}`));
        else report(st, 'no clipboard in this page (not a secure context?)');
      } else if (what === 'push') {
        if (!hooks.push(st, command[K.HOOK], command[K.VALUE]) && st.el) report(st, `no hook "${command[K.HOOK]}" for a pushed message`);
      } else if (Object.hasOwn(ON_ELEMENT, what)) {
        let el = null;
        try {
          el = st.el?.querySelector(command[K.AT]);
        } catch {} // not a selector: reported below
        if (!el) {
          if (st.el) report(st, `no element "${command[K.AT]}" for the command "${what}"`);
          continue;
        }
        try {
          ON_ELEMENT[what](el, command);
        } catch (error) {
          report(st, `the command "${what}" failed: ${error.message}`); // an attribute name the DOM refuses
        }
      } else report(st, `unknown command "${what}"`);
    }
  }

  return { run };
});
