// Drop a file on the form: it is sent as the form's file and submitted (no library, no network).
(function () {
  var form = document.getElementById("text-form");
  var input = document.getElementById("file");
  if (!form || !input) { return; }
  ["dragenter", "dragover"].forEach(function (name) {
    form.addEventListener(name, function (event) { event.preventDefault(); form.classList.add("dragging"); });
  });
  ["dragleave", "drop"].forEach(function (name) {
    form.addEventListener(name, function () { form.classList.remove("dragging"); });
  });
  form.addEventListener("drop", function (event) {
    event.preventDefault();
    if (event.dataTransfer && event.dataTransfer.files.length) {
      input.files = event.dataTransfer.files;
      form.submit();
    }
  });
})();
