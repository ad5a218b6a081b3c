; Inno Setup script for Upabhasha on Windows (x64). Reviewed against packaging/upabhasha.spec;
; not built on the Linux CI machine. Build (see packaging/windows/build.ps1):
;   python -m PyInstaller --noconfirm --distpath build\pyinstaller\dist ^
;          --workpath build\pyinstaller\work packaging\upabhasha.spec
;   iscc /DAppVersion=0.1.0 /DVariant=cpu  packaging\windows\upabhasha.iss
;   iscc /DAppVersion=0.1.0 /DVariant=cuda packaging\windows\upabhasha.iss   (GPU build)
;
; Install experience (packaging/README.md): program files only go to {app}, the embedded
; model among them, assembled at build time and read there in place (no user gets a copy);
; settings and logs live in %LOCALAPPDATA%\upabhasha (platformdirs), workspaces wherever the
; user saves them, so a per-user install needs no administrator and the uninstaller never
; touches user data. Large GGUF files stay where the user keeps them.

#ifndef AppVersion
  #error Pass /DAppVersion=<version from pyproject.toml>
#endif
#ifndef Variant
  #define Variant "cpu"
#endif
#if Variant == "cuda"
  #define VariantName " (NVIDIA GPU)"
  #define AppIdGuid "{{6B0E3C2A-7F49-4C1E-9B2D-5A8E1F4C0D21}"
#else
  #define VariantName ""
  #define AppIdGuid "{{3F1C8A57-2D6B-4E90-A1C4-7B5D9E2F6A13}"
#endif
#define Bundle "..\..\build\pyinstaller\dist\upabhasha"

[Setup]
AppId={#AppIdGuid}
AppName=Upabhasha{#VariantName}
AppVersion={#AppVersion}
AppPublisher=Upabhasha
AppComments=How much worse do LLMs answer questions in Bengali dialects?
DefaultDirName={autopf}\Upabhasha
DefaultGroupName=Upabhasha
; per-user install by default (no admin); "install for all users" stays possible
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\dist
OutputBaseFilename=upabhasha-{#AppVersion}-windows-x64-{#Variant}-setup
SetupIconFile=..\upabhasha.ico
UninstallDisplayIcon={app}\upabhasha-gui.exe
Compression=lzma2/max
SolidCompression=yes
; the embedded model chunks alone are ~250 MB
DiskSpanning=no
WizardStyle=modern
ChangesAssociations=no

[Files]
; the whole PyInstaller folder: upabhasha-gui.exe, upabhasha.exe and _internal\
Source: "{#Bundle}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "..\README.md"; DestDir: "{app}"; DestName: "PACKAGING-NOTES.md"; Flags: ignoreversion

[Icons]
Name: "{group}\Upabhasha"; Filename: "{app}\upabhasha-gui.exe"
Name: "{group}\Upabhasha command line"; Filename: "{cmd}"; \
  Parameters: "/k ""{app}\upabhasha.exe"" --help"; WorkingDir: "{userdocs}"
Name: "{group}\Uninstall Upabhasha"; Filename: "{uninstallexe}"
Name: "{autodesktop}\Upabhasha"; Filename: "{app}\upabhasha-gui.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Run]
; a quick self-check a lab administrator can tick at the end of the install
Filename: "{app}\upabhasha.exe"; Parameters: "--smoke-test"; \
  Description: "Run the self-check (about a minute)"; Flags: postinstall unchecked runhidden waituntilterminated
Filename: "{app}\upabhasha-gui.exe"; Description: "{cm:LaunchProgram,Upabhasha}"; \
  Flags: nowait postinstall skipifsilent

[UninstallDelete]
; only what the program itself created inside {app} (compiled caches); never user data
Type: filesandordirs; Name: "{app}\_internal\__pycache__"
