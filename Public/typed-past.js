/*
 * A field's error is about the text the server checked, which typing goes past: a Footlight hook
 * (Bindings.md, "JavaScript hooks") on the field, <div class="field" data-hook="typed-past:email">,
 * whose value is the field's slot (the text the server last saw). While the field's control
 * holds other text (typed after, not yet checked: a debounce and a round trip, most of a second),
 * the field has the class "typed-past", which the style sheet uses to hide its error; the
 * server's next answer is about what was typed. Plain JavaScript, loaded after the runtime.
 */
'use strict';

(() => {
  const mark = (h) => h.el.classList.toggle('typed-past', h.control.value !== (h.value ?? ''));

  window.footlight.hook('typed-past', {
    mounted(h) {
      h.control = h.el.querySelector('input, textarea');
      h.control.addEventListener('input', () => mark(h));
      mark(h);
    },
    updated: mark,
  });
})();
