// The course site's one script (docs/Doxyfile.in copies it; harness/site/lesson_links.sh loads
// it on every page): each picture of a page opens at full size, in its own tab, when clicked,
// and a small picture (a work-group's pixels, a tile, a heat map's cells) is shown at least
// twice its size, its pixels kept sharp, so that its detail can be seen.
(function () {
  'use strict';
  var SMALL = 480;  // narrower than this (in pixels), a raster picture is shown enlarged
  function enlarge(picture) {
    if (picture.tagName !== 'IMG' || /\.svg$/i.test(picture.getAttribute('src') || '')) return;
    if (picture.naturalWidth === 0 || picture.naturalWidth >= SMALL) return;
    var scale = Math.max(2, Math.floor(SMALL / picture.naturalWidth));
    picture.style.width = picture.naturalWidth * scale + 'px';
    picture.style.imageRendering = 'pixelated';
  }
  // Doxygen shows a picture as an img (inside div.image, or inline in a paragraph that follows a
  // code block) and an SVG in div.image as an object (which lets clicks through to the link).
  var pictures = document.querySelectorAll('div.contents img, div.contents div.image object');
  for (var i = 0; i < pictures.length; i++) {
    var picture = pictures[i];
    if (picture.tagName === 'IMG') {
      if (picture.complete) enlarge(picture);
      else picture.addEventListener('load', enlarge.bind(null, picture));
    }
    if (picture.closest('a')) continue;
    var link = document.createElement('a');
    link.href = picture.getAttribute('src') || picture.getAttribute('data');
    link.target = '_blank';
    link.title = 'Open the picture at full size';
    picture.parentElement.insertBefore(link, picture);
    link.appendChild(picture);
  }
})();
