/*
 * The kiosk's bid-history chart: a Footlight hook (Bindings.md, "JavaScript hooks") on the lot page's
 * <canvas data-hook="bid-chart:history">. It draws the lot's bids so far as a step line (the
 * value: {amounts, low, high, summary}, amounts in cents, oldest first), redraws when a bid
 * arrives, and marks the visitor's own bids, which the server pushes ({mine: cents}) as they
 * are accepted. The figure's caption says the same in words; the canvas is hidden from screen
 * readers. Plain JavaScript, loaded after the runtime (window.footlight).
 */
'use strict';

(() => {
  const PAD = 16; // around the plot
  const GUTTER = 76; // left of it, for the highest and lowest amounts

  function draw(h) {
    const canvas = h.el;
    const amounts = h.value?.amounts ?? [];
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || 320;
    const height = canvas.clientHeight || 120;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const g = canvas.getContext('2d');
    // What it shows, for a reader of the page's source (and the tests): points/own points.
    canvas.dataset.drawn = `${amounts.length}/${amounts.filter((cents) => h.mine.has(cents)).length}`;
    if (!g || !amounts.length) return;
    g.scale(ratio, ratio);
    const style = getComputedStyle(canvas);
    const ink = style.color;
    const accent = style.getPropertyValue('--accent').trim() || ink;
    const low = Math.min(...amounts);
    const span = Math.max(...amounts) - low || 1;
    const left = Math.min(GUTTER, width / 3);
    const x = (i) => left + (amounts.length === 1 ? (width - left - PAD) / 2 : (i * (width - left - PAD)) / (amounts.length - 1));
    const y = (cents) => height - PAD - ((cents - low) / span) * (height - 2 * PAD);

    g.strokeStyle = ink;
    g.lineWidth = 2;
    g.beginPath();
    amounts.forEach((cents, i) => {
      if (i === 0) g.moveTo(x(0), y(cents));
      else g.lineTo(x(i), y(amounts[i - 1])), g.lineTo(x(i), y(cents)); // a bid holds until the next
    });
    g.stroke();
    for (const [i, cents] of amounts.entries()) {
      const mine = h.mine.has(cents);
      g.fillStyle = mine ? accent : ink;
      g.beginPath();
      g.arc(x(i), y(cents), mine ? 5 : 3, 0, 2 * Math.PI);
      g.fill();
    }
    g.fillStyle = ink;
    g.font = '12px system-ui, sans-serif';
    g.fillText(h.value.high, 0, PAD);
    g.fillText(h.value.low, 0, height - PAD + 4);
  }

  window.footlight.hook('bid-chart', {
    mounted(h) {
      h.mine = new Set(); // the amounts of the visitor's own accepted bids (two bids never tie)
      draw(h);
    },
    updated: draw,
    received(h, message) {
      if (Number.isInteger(message?.mine)) h.mine.add(message.mine);
      draw(h);
    },
  });
})();
