// Copy buttons of a paper page: each copies the text of the export it names, exactly.
"use strict";
(function () {
  var buttons = document.querySelectorAll("button[data-copy]");
  Array.prototype.forEach.call(buttons, function (button) {
    button.hidden = false;
    var label = button.textContent;
    button.addEventListener("click", function () {
      var text = document.getElementById(button.getAttribute("data-copy")).textContent;
      var said = document.getElementById(button.getAttribute("data-copy") + "-copied");
      navigator.clipboard.writeText(text).then(function () {
        said.textContent = "Copied.";
      }, function () {
        said.textContent = "Copying was refused; select the text and copy it.";
      });
      setTimeout(function () { said.textContent = ""; button.textContent = label; }, 4000);
    });
  });
})();
