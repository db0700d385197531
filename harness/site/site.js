// The course site's one script (docs/Doxyfile.in copies it; harness/site/lesson_links.sh loads
// it on every page): each picture of a page opens at full size, in its own tab, when clicked.
(function () {
  'use strict';
  // Doxygen shows a PNG as an img and an SVG as an object (which lets clicks through to the link).
  var pictures = document.querySelectorAll('div.contents div.image img, div.contents div.image object');
  for (var i = 0; i < pictures.length; i++) {
    var picture = pictures[i];
    if (picture.parentElement.tagName === 'A') continue;
    var link = document.createElement('a');
    link.href = picture.getAttribute('src') || picture.getAttribute('data');
    link.target = '_blank';
    link.title = 'Open the picture at full size';
    picture.parentElement.insertBefore(link, picture);
    link.appendChild(picture);
  }
})();
